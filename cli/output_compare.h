// `snag explore --compare-output [--compare-file FILE]...` (docs/explore.md,
// "Output that depends on the schedule"): the CLI's side of the output
// oracle, whose comparison runs in the runtime's fork server
// (runtime/engines/explore/output_oracle.h).
//
// Schedules are forked children of one process that share the file system:
// within one worker they run one after another, and the fork server puts the
// files back before each. Workers run side by side, so each worker gets its
// own copy of each file: where the file is one of the program's arguments
// (`prog ... output.txt`, or `--out=output.txt`), that argument names a
// file in a directory of the worker's own. A file the program names itself
// cannot be moved, so then the exploration has one worker.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "replay_file.h"
#include "report/finding.h"
#include "temp_file.h"

namespace snag::cli {

// Throws UsageError with one line when a --compare-file cannot be a file the
// program writes and snag reads: its directory does not exist, or it exists
// and is not a readable regular file.
void check_compare_files(const std::vector<std::string> &files);

// Whether `file` is one of the program's arguments (argv[1..]), alone or
// after a '='.
bool names_argument(const std::vector<std::string> &command, const std::string &file);

// `command` with every argument naming `files[i]` changed to `paths[i]`.
std::vector<std::string> with_output_paths(const std::vector<std::string> &command,
                                           const std::vector<std::string> &files,
                                           const std::vector<std::string> &paths);

// One worker's (or one replay's) copies of the compared files: a private
// directory, its paths for the files that are arguments (the others keep
// their names), and the compare_output list for the runtime.
class OutputPlaces {
 public:
  OutputPlaces(const std::vector<std::string> &files, const std::vector<std::string> &command);
  ~OutputPlaces();
  OutputPlaces(const OutputPlaces &) = delete;
  OutputPlaces &operator=(const OutputPlaces &) = delete;

  const std::vector<std::string> &paths() const { return paths_; }
  // The program's command line with the moved files.
  const std::vector<std::string> &command() const { return command_; }
  // The value of the runtime's compare_output option.
  std::string option_value() const;

 private:
  std::filesystem::path directory_;
  std::vector<std::string> paths_;
  std::vector<std::string> command_;
  std::optional<TempFile> list_;
};

// The output oracle's record of a failure, as the replay file keeps it.
std::optional<ExpectedOutput> expected_output_from(const nlohmann::json &record);

// After one replayed run: an output-mismatch finding when what it wrote
// (stdout in `stdout_path`, the files at `paths`, in the order of
// `expected.files`) differs from what schedule 0 wrote.
std::optional<report::Finding> output_mismatch(const ExpectedOutput &expected,
                                               const std::string &stdout_path,
                                               const std::vector<std::string> &paths);

}  // namespace snag::cli
