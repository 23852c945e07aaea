// The decisions of a schedule to replay (docs/explore.md, "Decisions"),
// read from the file named by the `replay` option.
#pragma once

#include <stdint.h>

#include "engines/explore/results.h"
#include "engines/explore/scheduler.h"

namespace snag::explore {

class ReplayLog {
 public:
  // Reads the file; prints a one-line error and returns false if it cannot.
  bool load(const char *path, bool lenient);

  // The recorded choice at choice point `choice`. When it is impossible (or
  // the log has ended) the running thread goes on if it may, else the
  // lowest-numbered candidate; strict replay marks the run as diverged.
  Tid choose(const Tid *candidates, int n, ControlledThread &me, bool me_may_continue,
             uint64_t choice);

 private:
  Decision *decisions_ = nullptr;
  uint64_t count_ = 0;
  bool lenient_ = false;
};

ReplayLog &replay_log();

}  // namespace snag::explore
