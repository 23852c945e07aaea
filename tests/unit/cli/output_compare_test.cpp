#include "cli/output_compare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/diagnostics.h"
#include "cli/temp_file.h"

namespace snag::cli {
namespace {

void write_text(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

TEST(OutputCompare, MovesOnlyTheArgumentsThatNameACompareFile) {
  std::vector<std::string> command{"prog", "2", "output.txt", "--log=output.txt", "other.txt"};
  EXPECT_TRUE(names_argument(command, "output.txt"));
  EXPECT_FALSE(names_argument(command, "prog"));  // argv[0] is not an argument
  EXPECT_FALSE(names_argument(command, "txt"));
  EXPECT_EQ(with_output_paths(command, {"output.txt"}, {"/w/0-output.txt"}),
            (std::vector<std::string>{"prog", "2", "/w/0-output.txt", "--log=/w/0-output.txt",
                                      "other.txt"}));
}

TEST(OutputCompare, EachPlaceHasItsOwnDirectoryRemovedAfterwards) {
  std::vector<std::string> command{"prog", "out.txt"};
  std::string first_path;
  {
    OutputPlaces first({"out.txt", "fixed.txt"}, command), second({"out.txt", "fixed.txt"}, command);
    first_path = first.paths()[0];
    EXPECT_NE(first.paths()[0], second.paths()[0]);
    EXPECT_EQ(first.paths()[1], "fixed.txt");  // not an argument: not moved
    EXPECT_EQ(first.command()[1], first.paths()[0]);
    write_text(first_path, "x");
  }
  EXPECT_FALSE(std::filesystem::exists(first_path));
  OutputPlaces only_stdout({}, command);
  EXPECT_EQ(only_stdout.option_value(), "stdout");
  EXPECT_EQ(only_stdout.command(), command);
}

TEST(OutputCompare, RefusesFilesItCouldNotReadBack) {
  EXPECT_THROW(check_compare_files({"/no/such/dir/out.txt"}), UsageError);
  EXPECT_THROW(check_compare_files({temp_directory()}), UsageError);
  EXPECT_THROW(check_compare_files({"/dev/null"}), UsageError);
  EXPECT_NO_THROW(check_compare_files({temp_directory() + "/not-yet-written.txt"}));
}

TEST(OutputCompare, AReplayThatPrintsTheReferenceHasNoMismatch) {
  TempFile printed("printed", ".txt");
  write_text(printed.path(), "total 10\n");
  ExpectedOutput expected{fnv1a64_hex("total 10\n"), {}, "stdout", 1, "total 10", "total 36"};
  EXPECT_FALSE(output_mismatch(expected, printed.path(), {}).has_value());
}

TEST(OutputCompare, AReplayThatPrintsAnotherLineIsAMismatchNamingIt) {
  TempFile printed("printed", ".txt");
  write_text(printed.path(), "total 36\n");
  ExpectedOutput expected{fnv1a64_hex("total 10\n"), {}, "stdout", 1, "total 10", "total 36"};
  auto finding = output_mismatch(expected, printed.path(), {});
  ASSERT_TRUE(finding.has_value());
  EXPECT_EQ(finding->kind, "output-mismatch");
  EXPECT_EQ(finding->message,
            "output differs from schedule 0's: stdout line 1 is \"total 36\"; schedule 0 printed "
            "\"total 10\"");
  EXPECT_EQ(finding->details["output_line"], 1);
}

TEST(OutputCompare, AFileNotWrittenIsAMismatch) {
  TempFile printed("printed", ".txt");
  ExpectedOutput expected{fnv1a64_hex(""), {{"out.txt", fnv1a64_hex("4\n")}}, "out.txt", 1, "4", "3"};
  auto finding = output_mismatch(expected, printed.path(), {temp_directory() + "/no-such-output"});
  ASSERT_TRUE(finding.has_value());
  EXPECT_EQ(finding->message, "output differs from schedule 0's: out.txt was not written; schedule 0 wrote it");
}

}  // namespace
}  // namespace snag::cli
