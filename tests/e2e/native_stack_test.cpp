// A side whose thread has no instrumented frame (the program called the
// runtime from code snag did not compile) is reported with its native stack,
// not "<no stack>": the interceptor the program called, then its callers in
// libc (libstdc++'s ~condition_variable tail-calls pthread_cond_destroy, so
// exit's handlers call it as far as the stack can tell).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

using nlohmann::json;

std::string snag_bin() { return std::string(SNAG_BIN_DIR) + "/snag"; }

TEST(NativeStack, ADestroyInExitTimeDestructorsShowsItsCallers) {
  RunResult r = run_command({snag_bin(), "race", "--format", "json", program_path("uninstrumented_caller")});
  EXPECT_EQ(r.exit_status, 66) << r.err;
  json report = json::parse(r.out);
  ASSERT_EQ(report["findings"].size(), 1u) << r.out;
  const json &sides = report["findings"][0]["sides"];
  ASSERT_EQ(sides.size(), 2u) << r.out;
  const json &destroy = sides[0]["stack"];
  ASSERT_GE(destroy.size(), 2u) << sides[0].dump();
  EXPECT_EQ(destroy[0]["function"], "pthread_cond_destroy") << destroy.dump();
  EXPECT_FALSE(destroy[0].contains("file")) << "snag's own source is not the program's: " << destroy.dump();
  bool through_exit = false;
  for (const json &frame : destroy)
    if (frame.value("function", "") == "exit" && frame["module"].get<std::string>().find("libc.so") != std::string::npos)
      through_exit = true;
  EXPECT_TRUE(through_exit) << destroy.dump();
  // The other side is the program's own line.
  const json &notify = sides[1]["stack"][0];
  EXPECT_EQ(notify["line"], marker_line("uninstrumented_caller.cc", "notify")) << sides[1].dump();
}

TEST(NativeStack, TheTextReportNamesModuleAndOffset) {
  RunResult r = run_command({snag_bin(), "race", program_path("uninstrumented_caller")});
  EXPECT_EQ(r.exit_status, 66) << r.err;
  const std::string text = r.out + r.err;
  EXPECT_EQ(text.find("<no stack>"), std::string::npos) << text;
  EXPECT_NE(text.find("#0 pthread_cond_destroy ("), std::string::npos) << text;
  EXPECT_NE(text.find(" exit "), std::string::npos) << text;
}

TEST(NativeStack, AProgramRunAloneShowsTheSameFrames) {
  RunResult r = run_command({program_path("uninstrumented_caller")}, {"SNAG_OPTIONS=engine=race"});
  EXPECT_EQ(r.err.find("<no stack>"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("#0 pthread_cond_destroy ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" exit ("), std::string::npos) << "libc's exit, by module and offset: " << r.err;
}

}  // namespace
}  // namespace snag::e2e
