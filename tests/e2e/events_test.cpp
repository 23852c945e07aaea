// The runtime's event stream, checked program by program against the source
// lines marked in tests/e2e/programs.
#include <gtest/gtest.h>

#include <set>

#include "e2e_support.h"

namespace snag::e2e {
namespace {

constexpr uint64_t kMutex = 1, kSpin = 2, kRw = 4, kRead = 8, kTry = 16, kTimed = 32,
                   kRecursive = 64;

// By value: callers pass temporaries from at_line().
EventLine only(const std::vector<EventLine> &events, const std::string &what) {
  if (events.size() != 1) {
    ADD_FAILURE() << "expected exactly one " << what << ", got " << events.size();
    return EventLine{};
  }
  return events[0];
}

TEST(Events, ThreadLifeCycle) {
  RunResult r = run_recorded(program_path("threads"));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "value 3\n");
  auto creates = of_kind(r.events, "thread-create");
  ASSERT_EQ(creates.size(), 3u);
  const EventLine create_a =
      only(at_line(r.events, "thread-create", "threads.c", marker_line("threads.c", "create-a")),
           "create at create-a");
  EXPECT_EQ(create_a.thread, 0);
  EXPECT_EQ(create_a.number("value"), 1u);
  const EventLine join_a =
      only(at_line(r.events, "thread-join", "threads.c", marker_line("threads.c", "join-a")),
           "join at join-a");
  EXPECT_EQ(join_a.number("value"), 1u);
  // Thread 1: starts (parent 0), writes in worker(), exits, all before the join.
  auto write = at_line(r.events, "write", "threads.c", marker_line("threads.c", "worker-write"));
  ASSERT_GE(write.size(), 1u);
  EXPECT_EQ(write[0].thread, 1);
  EXPECT_EQ(write[0].function, "worker");
  const EventLine *start = nullptr, *exit = nullptr;
  for (const EventLine &e : r.events) {
    if (e.thread == 1 && e.kind == "thread-start") start = &e;
    if (e.thread == 1 && e.kind == "thread-exit") exit = &e;
  }
  ASSERT_TRUE(start && exit);
  EXPECT_EQ(start->number("value"), 0u);
  EXPECT_LT(start->seq, write[0].seq);
  EXPECT_LT(write[0].seq, exit->seq);
  EXPECT_LT(exit->seq, join_a.seq);
  // The thread that called pthread_exit still ends with thread-exit.
  EXPECT_EQ(of_kind(r.events, "thread-exit").size(), 3u);
  EXPECT_EQ(of_kind(r.events, "thread-join").size(), 3u);
}

TEST(Events, EveryLockKind) {
  RunResult r = run_recorded(program_path("locks"), "record_accesses=0");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "busy=1 rw_busy=1\n");
  auto line = [](const char *m) { return marker_line("locks.c", m); };
  auto acquired = [&](const char *m) {
    return only(at_line(r.events, "lock-acquired", "locks.c", line(m)), m);
  };
  EXPECT_EQ(acquired("lock-plain").number("flags"), kMutex);
  EXPECT_EQ(only(at_line(r.events, "lock-before", "locks.c", line("lock-plain")), "before").number("flags"),
            kMutex);
  const EventLine busy = only(at_line(r.events, "lock-failed", "locks.c", line("trylock-busy")), "busy");
  EXPECT_EQ(busy.number("flags"), kMutex | kTry);
  EXPECT_EQ(only(at_line(r.events, "unlock", "locks.c", line("unlock-plain")), "unlock").number("flags"),
            kMutex);
  EXPECT_EQ(acquired("relock-recursive").number("flags"), kMutex | kRecursive);
  EXPECT_EQ(acquired("timedlock").number("flags"), kMutex | kTimed);
  EXPECT_EQ(acquired("rdlock").number("flags"), kRw | kRead);
  EXPECT_EQ(acquired("wrlock").number("flags"), kRw);
  EXPECT_EQ(only(at_line(r.events, "lock-failed", "locks.c", line("tryrdlock-busy")), "rw busy")
                .number("flags"),
            kRw | kRead | kTry);
  EXPECT_EQ(acquired("spin-lock").number("flags"), kSpin);
  EXPECT_EQ(only(at_line(r.events, "lock-create", "locks.c", line("init-recursive")), "create")
                .number("flags"),
            kMutex | kRecursive);
  EXPECT_EQ(only(at_line(r.events, "lock-destroy", "locks.c", line("destroy-recursive")), "destroy")
                .number("flags"),
            kMutex | kRecursive);
  // Every acquisition is preceded by its lock-before on the same lock.
  EXPECT_EQ(of_kind(r.events, "lock-before").size(),
            of_kind(r.events, "lock-acquired").size() + of_kind(r.events, "lock-failed").size());
}

TEST(Events, ConditionVariablesBarriersSemaphoresOnce) {
  RunResult r = run_recorded(program_path("waits"), "record_accesses=0");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "initialized=1 timedout=1 try_failed=1\n");
  auto line = [](const char *m) { return marker_line("waits.c", m); };
  auto waits = at_line(r.events, "cond-wait", "waits.c", line("cond-wait"));
  auto woken = at_line(r.events, "cond-woken", "waits.c", line("cond-wait"));
  EXPECT_EQ(waits.size(), woken.size());
  // The main thread may find `ready` already set and never wait; the signal
  // is certain.
  const EventLine signal = only(at_line(r.events, "cond-signal", "waits.c", line("cond-signal")), "signal");
  EXPECT_EQ(signal.thread, 1);
  for (const EventLine &w : waits) EXPECT_TRUE(w.has("addr2")) << "cond-wait names its mutex";
  const EventLine timed = only(at_line(r.events, "cond-woken", "waits.c", line("cond-timedwait")), "timed");
  EXPECT_EQ(timed.number("value"), 1u) << "timed out";
  EXPECT_EQ(of_kind(r.events, "barrier-wait").size(), 2u);
  auto passed = of_kind(r.events, "barrier-passed");
  ASSERT_EQ(passed.size(), 2u);
  EXPECT_EQ(passed[0].number("value") + passed[1].number("value"), 1u) << "one serial thread";
  only(at_line(r.events, "sem-post", "waits.c", line("sem-post")), "post");
  only(at_line(r.events, "sem-acquired", "waits.c", line("sem-wait")), "acquired");
  only(at_line(r.events, "sem-failed", "waits.c", line("sem-trywait-empty")), "trywait failed");
  EXPECT_EQ(of_kind(r.events, "once-enter").size(), 2u);
  EXPECT_EQ(of_kind(r.events, "once-exit").size(), 2u);
  auto done = of_kind(r.events, "once-init-done");
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].fields.at("addr"),
            only(at_line(r.events, "once-enter", "waits.c", line("once-main")), "once").fields.at("addr"));
}

TEST(Events, PlainAccessesAndMemoryIntrinsics) {
  RunResult r = run_recorded(program_path("accesses"));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  auto line = [](const char *m) { return marker_line("accesses.c", m); };
  struct Case {
    const char *marker, *kind;
    uint64_t size;
  } cases[] = {{"write8", "write", 1},  {"write16", "write", 2}, {"write32", "write", 4},
               {"write64", "write", 8}, {"read32", "read", 4},   {"touch-write", "write", 8}};
  for (const Case &c : cases) {
    auto found = at_line(r.events, c.kind, "accesses.c", line(c.marker));
    ASSERT_FALSE(found.empty()) << c.marker;
    EXPECT_EQ(found[0].number("size"), c.size) << c.marker;
  }
  auto copy_reads = at_line(r.events, "read", "accesses.c", line("memcpy"));
  auto copy_writes = at_line(r.events, "write", "accesses.c", line("memcpy"));
  ASSERT_EQ(copy_reads.size(), 1u);
  ASSERT_EQ(copy_writes.size(), 1u);
  EXPECT_EQ(copy_reads[0].number("size"), 64u);
  EXPECT_EQ(copy_writes[0].number("range"), 1u);
  auto set_writes = at_line(r.events, "write", "accesses.c", line("memset"));
  ASSERT_EQ(set_writes.size(), 1u);
  EXPECT_EQ(set_writes[0].number("size"), 40u);
  const EventLine alloc = only(at_line(r.events, "alloc", "accesses.c", line("malloc")), "alloc");
  EXPECT_EQ(alloc.number("value"), 24u);
  const EventLine freed = only(at_line(r.events, "free", "accesses.c", line("free")), "free");
  EXPECT_EQ(freed.fields.at("addr"), alloc.fields.at("addr"));
  auto touch = at_line(r.events, "write", "accesses.c", line("touch-write"));
  EXPECT_EQ(touch[0].fields.at("addr"), alloc.fields.at("addr"));
  EXPECT_EQ(touch[0].function, "touch");
}

TEST(Events, AtomicsCarryTheirMemoryOrders) {
  RunResult r = run_recorded(program_path("atomics"));
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "1 1 2\n");
  auto line = [](const char *m) { return marker_line("atomics.cc", m); };
  constexpr uint64_t kLoad = 0, kStore = 1, kRmw = 2, kCas = 3;
  constexpr uint64_t kRelaxed = 0, kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5;
  const EventLine store = only(at_line(r.events, "atomic-before", "atomics.cc", line("store-release")), "store");
  EXPECT_EQ(store.number("order"), kRelease);
  EXPECT_EQ(store.number("value"), kStore);
  EXPECT_TRUE(at_line(r.events, "atomic-after", "atomics.cc", line("store-release")).empty())
      << "stores have no after hook";
  const EventLine load = only(at_line(r.events, "atomic-after", "atomics.cc", line("load-acquire")), "load");
  EXPECT_EQ(load.number("order"), kAcquire);
  EXPECT_EQ(load.number("value"), kLoad);
  const EventLine rmw = only(at_line(r.events, "atomic-after", "atomics.cc", line("rmw-relaxed")), "rmw");
  EXPECT_EQ(rmw.number("order"), kRelaxed);
  EXPECT_EQ(rmw.number("value"), kRmw);
  EXPECT_EQ(rmw.number("size"), 8u);
  const EventLine cas = only(at_line(r.events, "atomic-after", "atomics.cc", line("cas")), "cas");
  EXPECT_EQ(cas.number("order"), kAcqRel);
  EXPECT_EQ(cas.number("value"), kCas);
  EXPECT_EQ(cas.number("addr2"), kAcquire) << "failure order";
  EXPECT_EQ(cas.number("flags"), 1u) << "succeeded";
  EXPECT_EQ(only(at_line(r.events, "fence", "atomics.cc", line("fence")), "fence").number("order"), kSeqCst);
  EXPECT_EQ(only(at_line(r.events, "atomic-after", "atomics.cc", line("load-seq-cst")), "seq_cst load")
                .number("order"),
            kSeqCst);
  // Atomic accesses are not also plain accesses.
  EXPECT_TRUE(at_line(r.events, "write", "atomics.cc", line("store-release")).empty());
}

bool any_in_header(const std::vector<EventLine> &events, const std::string &kind,
                   const std::string &header_part) {
  for (const EventLine &e : events)
    if (e.kind == kind && e.has("inlined") && e.fields.at("inlined").find(header_part) != std::string::npos)
      return true;
  return false;
}

TEST(Events, CxxStandardLibrarySynchronization) {
  RunResult r = run_recorded(program_path("cxx_sync"), "record_accesses=0");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "once\n1 42 5\n");
  auto line = [](const char *m) { return marker_line("cxx_sync.cc", m); };
  // std::thread, std::async, the promise's producer and the jthread.
  EXPECT_EQ(of_kind(r.events, "thread-create").size(), 4u);
  EXPECT_EQ(of_kind(r.events, "thread-join").size(), 4u) << "async's thread is joined too";
  bool shared_read = false, exclusive = false;
  for (const EventLine &e : of_kind(r.events, "lock-acquired")) {
    if (e.number("flags") == (kRw | kRead)) shared_read = true;
    if (e.number("flags") == kRw) exclusive = true;
  }
  EXPECT_TRUE(shared_read) << "std::shared_lock -> pthread_rwlock_rdlock";
  EXPECT_TRUE(exclusive) << "std::unique_lock<shared_mutex> -> pthread_rwlock_wrlock";
  EXPECT_GE(of_kind(r.events, "once-init-done").size(), 1u) << "std::call_once";
  auto guard = of_kind(r.events, "guard-acquired");
  bool must_init = false;
  for (const EventLine &g : guard) must_init |= g.number("value") == 1;
  EXPECT_TRUE(must_init) << "function-local static";
  EXPECT_EQ(of_kind(r.events, "guard-released").size(), 1u);
  const EventLine wait = only(at_line(r.events, "futex-wait", "cxx_sync.cc", line("futex-wait")), "futex wait");
  EXPECT_EQ(wait.number("value"), 1u) << "expected value";
  only(at_line(r.events, "futex-woken", "cxx_sync.cc", line("futex-wait")), "futex woken");
  only(at_line(r.events, "futex-wake", "cxx_sync.cc", line("futex-wake")), "futex wake");
  EXPECT_TRUE(any_in_header(r.events, "atomic-after", "latch")) << "std::latch's counter";
  EXPECT_TRUE(any_in_header(r.events, "atomic-after", "semaphore")) << "counting_semaphore";
  EXPECT_TRUE(any_in_header(r.events, "atomic-before", "stop_token")) << "jthread's stop state";
}

TEST(Events, ContainerCallsAreMarked) {
  RunResult r = run_recorded(program_path("containers"), "record_accesses=0");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  auto line = [](const char *m) { return marker_line("containers.cc", m); };
  struct Case {
    const char *marker;
    uint64_t is_write;
  } cases[] = {{"vector-push", 1}, {"vector-size", 0}, {"map-index", 1}, {"map-find", 0},
               {"string-append", 1}};
  for (const Case &c : cases) {
    auto begins = at_line(r.events, "api-begin", "containers.cc", line(c.marker));
    ASSERT_EQ(begins.size(), 1u) << c.marker;
    EXPECT_EQ(begins[0].has("flags") ? begins[0].number("flags") : 0u, c.is_write) << c.marker;
    EXPECT_EQ(at_line(r.events, "api-end", "containers.cc", line(c.marker)).size(), 1u) << c.marker;
  }
}

TEST(Events, ForkWithAThreadRunning) {
  RunResult r = run_recorded(program_path("fork"), "record_accesses=0");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "child exited 7\n");
  only(at_line(r.events, "fork-before", "fork.c", marker_line("fork.c", "fork")), "fork-before");
  only(of_kind(r.events, "fork-parent"), "fork-parent");
  only(of_kind(r.events, "fork-child"), "fork-child");
  const EventLine child_lock =
      only(at_line(r.events, "lock-acquired", "fork.c", marker_line("fork.c", "child-lock")), "child lock");
  EXPECT_EQ(child_lock.thread, 0) << "the child continues as the forking thread";
}

TEST(Events, ExitWithThreadsStillRunning) {
  RunResult r = run_recorded(program_path("exit_with_threads"), "record_accesses=0");
  EXPECT_EQ(r.exit_status, 3) << r.err;
  EXPECT_EQ(r.out, "leaving with a thread blocked\n");
  EXPECT_EQ(of_kind(r.events, "program-exit").size(), 1u);
  EXPECT_EQ(of_kind(r.events, "thread-exit").size(), 0u) << "the blocked thread never ended";
}

TEST(Events, ThousandThreads) {
  RunResult r = run_recorded(program_path("many_threads"), "record_only=thread-start,thread-join");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(r.out, "1000 threads\n");
  std::set<int> started;
  for (const EventLine &e : of_kind(r.events, "thread-start")) started.insert(e.thread);
  EXPECT_EQ(started.size(), 1000u);
  EXPECT_EQ(of_kind(r.events, "thread-join").size(), 1000u);
}

}  // namespace
}  // namespace snag::e2e
