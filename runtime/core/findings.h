// The finding sink. An engine fills a Finding and hands it to report_finding,
// which writes it at once, in one write(2), as a JSON line (docs/findings.md)
// to the findings file or descriptor from SNAG_OPTIONS, or, when the program
// runs alone, as ThreadSanitizer-style text on stderr. Nothing is buffered,
// so a crash right after a report loses nothing.
#pragma once

#include <stdint.h>

#include "core/stack.h"
#include "core/thread_state.h"

namespace snag {

struct FindingLock {
  uintptr_t address = 0;
  StackTrace stack;  // where it was acquired (depth 0 when unknown)
};

struct FindingSide {
  static constexpr int kMaxLocks = 4;
  const char *role = "current";
  char description[256] = {};
  Tid thread = kNoThread;
  bool has_access = false;
  uintptr_t access_address = 0;
  uintptr_t access_size = 0;
  const char *access_kind = "read";
  StackTrace stack;
  int lock_count = 0;
  FindingLock locks[kMaxLocks];
};

struct FindingDetail {
  const char *key;
  char value[160];
};

struct Finding {
  static constexpr int kMaxSides = 4;
  static constexpr int kMaxThreads = 8;
  static constexpr int kMaxDetails = 8;

  const char *engine = "";
  const char *kind = "";
  const char *title = nullptr;  // defaults to kind
  const char *severity = "error";
  char message[512] = {};
  double rank = 0.5;

  int side_count = 0;
  FindingSide sides[kMaxSides];

  // Threads to describe (with creation stacks); taken from the sides when empty.
  int thread_count = 0;
  Tid threads[kMaxThreads];

  bool has_heap = false;
  uintptr_t heap_address = 0;
  uintptr_t heap_size = 0;
  Tid heap_thread = kNoThread;
  StackTrace heap_stack;

  char global_name[128] = {};
  uintptr_t global_address = 0;
  uintptr_t global_size = 0;

  int detail_count = 0;
  FindingDetail details[kMaxDetails];

  FindingSide &add_side();
  void add_detail(const char *key, const char *value);
  void add_detail(const char *key, uint64_t value);
};

// Allocates an empty finding in runtime memory (findings are too big for
// small thread stacks). report_finding frees it.
Finding *new_finding(const char *engine, const char *kind);
void report_finding(Finding *finding);

// Sets up the sink from SNAG_OPTIONS; called once at start-up.
void findings_init();
// Prints the standalone summary; returns how many findings were reported.
uint64_t findings_finish();
uint64_t findings_reported();
// The engine and kind of the latest finding reported ("" before the first).
const char *last_finding_engine();
const char *last_finding_kind();
uint64_t run_seed();

}  // namespace snag
