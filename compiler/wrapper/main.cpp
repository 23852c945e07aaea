// snag-cc / snag-c++: drop-in compiler wrappers around clang 14. They add the
// snag pass plugin, debug line info and frame pointers to every compilation,
// and the snag runtime to every link of an executable, then run clang.
//
//   CC=snag-cc CXX=snag-c++ cmake -S . -B build && cmake --build build
//
// Wrapper options (consumed, not passed to clang):
//   -fsnag-instrument=LIST   kinds to instrument: memory,atomics,memops,
//                            functions,api,guard | all | none   (default all)
//   -fsnag-api-table=FILE    more thread-unsafe classes for the api kind
//   -fsnag-invariants=FILE   with -fsnag-instrument=guard: instrument only the
//                            sites of this invariants file (a lean guard build)
//   -fsnag-bias=N            with it: leave out site groups that carried more
//                            than N% of the accesses when learning
//   -fsnag-verbose           print the clang command before running it
//   -fsanitize-ignorelist=FILE (or -fsanitize-blacklist=) ThreadSanitizer's
//                            ignore list: named functions' and files' plain
//                            accesses are not instrumented
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "command_line.h"
#include "toolchain.h"

namespace {

using snag::wrapper::CommandLine;
using snag::wrapper::Toolchain;

bool called_as_cxx(const char *argv0) {
  std::string name = argv0;
  name = name.substr(name.find_last_of('/') + 1);
  return name.find("++") != std::string::npos || name.find("cxx") != std::string::npos;
}

std::vector<std::string> build_clang_command(const CommandLine &cl, const Toolchain &tc) {
  std::vector<std::string> cmd{tc.clang};
  if (!cl.info_only) {
    cmd.push_back("-fpass-plugin=" + tc.plugin);
    if (!cl.has_debug_flag) cmd.push_back("-g");
    // -fno-integrated-cc1: the plugin's configuration errors (a bad
    // -fsnag-instrument list, a malformed API table) then read as one clean
    // error instead of clang's crash report for its in-process compiler.
    cmd.insert(cmd.end(), {"-fno-omit-frame-pointer", "-mno-omit-leaf-frame-pointer",
                           "-D__SNAG__=1", "-isystem", tc.include_dir, "-Qunused-arguments",
                           "-fno-integrated-cc1"});
    // __has_feature(thread_sanitizer) is true, so code written for
    // ThreadSanitizer keeps its annotations (the header says why).
    cmd.insert(cmd.end(), {"-include", tc.include_dir + "/snag/tsan_feature.h"});
  }
  cmd.insert(cmd.end(), cl.clang_args.begin(), cl.clang_args.end());
  if (cl.links && !cl.shared && !cl.partial_link && !cl.info_only) {
    // The whole runtime goes in: its interceptors must win over libc's even
    // when nothing in the program refers to them yet. The dynamic list
    // exports hooks and interceptors to shared libraries. "-x none" ends any
    // -x language the command line left in force, which would otherwise
    // apply to the runtime archive.
    cmd.insert(cmd.end(), {"-x", "none", "-Wl,--whole-archive", tc.runtime, "-Wl,--no-whole-archive",
                           "-Wl,--dynamic-list=" + tc.dynamic_list, "-lpthread", "-ldl"});
  }
  return cmd;
}

void set_plugin_environment(const CommandLine &cl) {
  if (!cl.instrument.empty()) setenv("SNAG_INSTRUMENT", cl.instrument.c_str(), 1);
  if (!cl.invariants.empty()) {
    std::error_code error;
    std::string absolute = std::filesystem::absolute(cl.invariants, error).string();
    setenv("SNAG_GUARD_INVARIANTS", error ? cl.invariants.c_str() : absolute.c_str(), 1);
  }
  if (cl.bias) setenv("SNAG_GUARD_BIAS", std::to_string(cl.bias).c_str(), 1);
  if (!cl.ignore_lists.empty()) {
    std::string lists;
    for (const std::string &l : cl.ignore_lists) {
      std::error_code error;
      std::string absolute = std::filesystem::absolute(l, error).string();
      lists += (lists.empty() ? "" : ":") + (error ? l : absolute);
    }
    setenv("SNAG_IGNORELIST", lists.c_str(), 1);
  }
  if (!cl.api_tables.empty()) {
    std::string tables;
    if (const char *existing = std::getenv("SNAG_API_TABLE")) tables = existing;
    for (const std::string &t : cl.api_tables) tables += (tables.empty() ? "" : ":") + t;
    setenv("SNAG_API_TABLE", tables.c_str(), 1);
  }
}

}  // namespace

int main(int argc, char **argv) {
  const char *self = argc > 0 ? argv[0] : "snag-cc";
  std::string name = std::string(self).substr(std::string(self).find_last_of('/') + 1);
  try {
    CommandLine cl = snag::wrapper::parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    if (cl.is_static && cl.links)
      throw std::runtime_error(
          "-static is not supported: the snag runtime needs the dynamic loader to reach libc");
    Toolchain tc = snag::wrapper::find_toolchain(called_as_cxx(self));
    set_plugin_environment(cl);
    std::vector<std::string> cmd = build_clang_command(cl, tc);
    if (cl.verbose) {
      for (const std::string &a : cmd) std::cerr << a << ' ';
      std::cerr << '\n';
    }
    std::vector<char *> exec_args;
    for (std::string &a : cmd) exec_args.push_back(a.data());
    exec_args.push_back(nullptr);
    execvp(exec_args[0], exec_args.data());
    throw std::runtime_error("cannot run " + cmd[0] + ": " + std::strerror(errno));
  } catch (const std::exception &e) {
    std::cerr << name << ": error: " << e.what() << '\n';
    return 2;
  }
}
