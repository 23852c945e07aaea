// What `snag tsv` accepts as a trap file of a program before a run.
#include <gtest/gtest.h>

#include "cli/trap_file.h"

namespace snag::cli {
namespace {

TEST(TrapFile, AcceptsTheProgramsOwnFile) {
  EXPECT_EQ(trap_file_problem("snag-tsv-traps 1\nprogram worker\n"
                              "pair 00000000000000aa 00000000000000bb dangerous\n"
                              "pair 00000000000000aa 00000000000000cc ordered\n# note\n\n",
                              "worker"),
            std::nullopt);
}

TEST(TrapFile, SaysWhatIsWrong) {
  EXPECT_EQ(trap_file_problem("", "worker"), "it is empty");
  EXPECT_EQ(trap_file_problem("garbage\n", "worker"), "it does not start with 'snag-tsv-traps 1'");
  EXPECT_EQ(trap_file_problem("snag-tsv-traps 1\nprogram other\n", "worker"),
            "it belongs to program 'other'");
  EXPECT_EQ(trap_file_problem("snag-tsv-traps 1\npair 00000000000000aa dangerous\n", "worker"),
            "line 2 is malformed");
  EXPECT_EQ(trap_file_problem("snag-tsv-traps 1\npair 00000000000000aa 00000000000000bb often\n",
                              "worker"),
            "line 2 is malformed");
}

TEST(TrapFile, LivesNextToTheProgram) {
  EXPECT_EQ(default_trap_file("/tmp/worker"), "/tmp/worker.snag-traps");
  // A directory it cannot write (here: one that does not exist): the
  // current directory instead.
  EXPECT_EQ(default_trap_file("/nonexistent-dir/worker"), "worker.snag-traps");
}

}  // namespace
}  // namespace snag::cli
