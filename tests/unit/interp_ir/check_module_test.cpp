// CheckModule on small programs: each buggy program must give exactly the
// finding of its kind with the lines of both sides (found by the marker
// comments in the source), and each fixed twin must give nothing. Programs
// are compiled with clang-14 (-O0 -g, mem2reg) at test time, as snag check's
// front end does; a few tests parse IR text directly.
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "interp/ir/checker.h"

namespace snag::interp {
namespace {

std::string TestStem() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "snag_check_ir_" + info->test_suite_name() + "_" + info->name();
}

// Compiles `source` as snag check's front end does and interprets it.
CheckResult CheckSource(const std::string& source, bool is_c = false, CheckOptions options = {}) {
  const std::string stem = TestStem();
  const std::string src = stem + (is_c ? ".c" : ".cc");
  const std::string bc = stem + ".bc";
  std::ofstream(src) << source;
  const std::string compile = std::string(is_c ? SNAG_TEST_CLANG : SNAG_TEST_CLANGXX) +
                              (is_c ? " -std=c11" : " -std=c++20") +
                              " -O0 -g -Xclang -disable-O0-optnone -emit-llvm -c " + src + " -o " + bc +
                              " && " SNAG_TEST_OPT " -passes=mem2reg " + bc + " -o " + bc;
  if (std::system(compile.c_str()) != 0) throw std::runtime_error("compile failed: " + compile);
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(bc, error, context);
  if (!module) throw std::runtime_error("cannot read " + bc);
  return CheckModule(*module, options);
}

CheckResult CheckIR(const std::string& text, CheckOptions options = {}) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  if (!module) throw std::runtime_error("bad IR: " + error.getMessage().str());
  return CheckModule(*module, options);
}

// `source` with its one occurrence of `from` replaced by `to` (fixed twins).
std::string Replace(std::string source, const std::string& from, const std::string& to) {
  const size_t at = source.find(from);
  if (at == std::string::npos) throw std::runtime_error("not in source: " + from);
  return source.replace(at, from.size(), to);
}

// 1-based line of the first line holding `marker`.
unsigned LineOf(const std::string& source, const std::string& marker) {
  std::istringstream in(source);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(marker) != std::string::npos) return n;
  ADD_FAILURE() << "marker " << marker << " not in source";
  return 0;
}

std::set<unsigned> Lines(const CheckFinding& f) {
  std::set<unsigned> lines;
  for (const FindingSide& s : f.sides) lines.insert(s.site.line);
  return lines;
}

std::vector<CheckFinding> OfKind(const CheckResult& r, CheckFinding::Kind kind) {
  std::vector<CheckFinding> out;
  for (const CheckFinding& f : r.findings)
    if (f.kind == kind) out.push_back(f);
  return out;
}

constexpr auto kRace = CheckFinding::Kind::kRace;
constexpr auto kDeadlock = CheckFinding::Kind::kDeadlock;

// ------------------------------------------------------------------ races

const char* kCounterBuggy = R"(#include <thread>
#include <mutex>
int counter;
std::mutex m;
void add() { counter++; }  // A
void add_locked() { std::lock_guard<std::mutex> g(m); counter++; }  // B
int main() {
  std::thread a(add), b(add_locked);
  a.join();
  b.join();
}
)";

TEST(CheckModule, GlobalCounterRaceHasBothLinesAndTheVariableName) {
  CheckResult r = CheckSource(kCounterBuggy);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kCounterBuggy, "// A"), LineOf(kCounterBuggy, "// B")}));
  EXPECT_EQ(races[0].variable, "counter");
  EXPECT_EQ(races[0].message, "data race on 'counter'");
  EXPECT_TRUE(OfKind(r, kDeadlock).empty());
  // The sides name user functions and threads started in user code.
  for (const FindingSide& s : races[0].sides) {
    EXPECT_NE(s.site.file.find("snag_check_ir_"), std::string::npos) << s.site.file;
    EXPECT_NE(s.thread.find("started at"), std::string::npos) << s.thread;
  }
}

TEST(CheckModule, GlobalCounterFixedTwinIsClean) {
  std::string fixed = Replace(kCounterBuggy, "void add() { counter++; }",
                              "void add() { std::lock_guard<std::mutex> g(m); counter++; }");
  EXPECT_TRUE(CheckSource(fixed).findings.empty());
}

const char* kPthreadBuggy = R"(#include <pthread.h>
int shared;
void* writer(void* arg) { (void)arg; shared = 1; return 0; }  // A
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int r = shared;  // B
  pthread_join(t, 0);
  return r;
}
)";

TEST(CheckModule, PthreadRaceInC) {
  CheckResult r = CheckSource(kPthreadBuggy, /*is_c=*/true);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kPthreadBuggy, "// A"), LineOf(kPthreadBuggy, "// B")}));
}

TEST(CheckModule, PthreadReadAfterJoinIsClean) {
  std::string fixed = Replace(kPthreadBuggy, "  int r = shared;  // B\n  pthread_join(t, 0);",
                              "  pthread_join(t, 0);\n  int r = shared;");
  EXPECT_TRUE(CheckSource(fixed, /*is_c=*/true).findings.empty());
}

const char* kC11Buggy = R"(#include <threads.h>
mtx_t m;
int counter;
once_flag flag = ONCE_FLAG_INIT;
int inited;
void init(void) { inited = 1; }
int work(void* arg) {
  (void)arg;
  call_once(&flag, init);
  counter++;  // A
  return inited;
}
int main(void) {
  mtx_init(&m, mtx_plain);
  thrd_t a, b;
  thrd_create(&a, work, 0);
  thrd_create(&b, work, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return counter;
}
)";

TEST(CheckModule, C11ThreadsRaceAndLockedTwin) {
  CheckResult r = CheckSource(kC11Buggy, /*is_c=*/true);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kC11Buggy, "// A")}));
  std::string fixed = Replace(kC11Buggy, "  counter++;  // A", "  mtx_lock(&m);\n  counter++;\n  mtx_unlock(&m);");
  EXPECT_TRUE(CheckSource(fixed, /*is_c=*/true).findings.empty());
}

const char* kSemaphoreBuggy = R"(#include <pthread.h>
#include <semaphore.h>
sem_t ready;
int data;
void* producer(void* arg) {
  (void)arg;
  sem_post(&ready);
  data = 5;  // A
  return 0;
}
int main(void) {
  sem_init(&ready, 0, 0);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  sem_wait(&ready);
  int r = data;  // B
  pthread_join(t, 0);
  return r;
}
)";

TEST(CheckModule, PosixSemaphoreOrdersOnlyWhatCameBeforeThePost) {
  CheckResult r = CheckSource(kSemaphoreBuggy, /*is_c=*/true);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kSemaphoreBuggy, "// A"), LineOf(kSemaphoreBuggy, "// B")}));
  std::string fixed = Replace(kSemaphoreBuggy, "  sem_post(&ready);\n  data = 5;  // A", "  data = 5;\n  sem_post(&ready);");
  EXPECT_TRUE(CheckSource(fixed, /*is_c=*/true).findings.empty());
}

const char* kVectorBuggy = R"(#include <thread>
#include <vector>
std::vector<int> v;
int main() {
  std::thread t([] { v.push_back(1); });  // A
  v.push_back(2);  // B
  t.join();
}
)";

TEST(CheckModule, RaceInsideHeaderCodeIsReportedAtTheUserCall) {
  CheckResult r = CheckSource(kVectorBuggy);
  auto races = OfKind(r, kRace);
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kVectorBuggy, "// A"), LineOf(kVectorBuggy, "// B")}));
  for (const CheckFinding& f : races)
    for (const FindingSide& s : f.sides) EXPECT_EQ(s.site.file.find("/usr/"), std::string::npos);
  EXPECT_EQ(races[0].variable, "v");
}

const char* kBranchBuggy = R"(#include <thread>
int x;
int main(int argc, char**) {
  std::thread t([] { x = 1; });  // A
  if (argc > 3) x = 2;  // B
  t.join();
}
)";

TEST(CheckModule, RaceOnOneSideOfAnInputDependentBranchIsFound) {
  CheckResult r = CheckSource(kBranchBuggy);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kBranchBuggy, "// A"), LineOf(kBranchBuggy, "// B")}));
}

TEST(CheckModule, ReleaseAcquireFlagOrdersThePayload) {
  const char* source = R"(#include <thread>
#include <atomic>
int data;
std::atomic<bool> ready{false};
int main() {
  std::thread t([] { data = 1; ready.store(true, std::memory_order_release); });
  while (!ready.load(std::memory_order_acquire)) {}
  int r = data;
  t.join();
  return r;
}
)";
  EXPECT_TRUE(CheckSource(source).findings.empty());
}

TEST(CheckModule, ConditionVariableHandOffIsClean) {
  const char* source = R"(#include <thread>
#include <mutex>
#include <condition_variable>
#include <queue>
std::mutex m;
std::condition_variable cv;
std::queue<int> q;
bool done = false;
int sum;
int main() {
  std::thread consumer([] {
    for (;;) {
      std::unique_lock<std::mutex> lk(m);
      cv.wait(lk, [] { return !q.empty() || done; });
      if (q.empty()) return;
      sum += q.front();
      q.pop();
    }
  });
  for (int i = 0; i < 3; ++i) {
    { std::lock_guard<std::mutex> g(m); q.push(i); }
    cv.notify_one();
  }
  { std::lock_guard<std::mutex> g(m); done = true; }
  cv.notify_all();
  consumer.join();
  return sum;
}
)";
  CheckResult r = CheckSource(source);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_GT(r.steps, 0u);
}

TEST(CheckModule, CallOnceAndFunctionLocalStaticsOrderInitialization) {
  const char* source = R"(#include <thread>
#include <mutex>
std::once_flag flag;
int* config;
struct Registry { int n = 5; };
Registry& registry() { static Registry r; return r; }
int get() { std::call_once(flag, [] { config = new int(42); }); return *config + registry().n; }
int main() {
  std::thread a(get), b(get);
  get();
  a.join();
  b.join();
}
)";
  EXPECT_TRUE(CheckSource(source).findings.empty());
}

// --------------------------------------------------------------- deadlocks

const char* kAbbaBuggy = R"(#include <thread>
#include <mutex>
std::mutex a, b;
int x;
void first() {
  std::lock_guard<std::mutex> ga(a);  // A1
  std::lock_guard<std::mutex> gb(b);  // B1
  x++;
}
void second() {
  std::lock_guard<std::mutex> gb(b);  // B2
  std::lock_guard<std::mutex> ga(a);  // A2
  x++;
}
int main() {
  std::thread p(first), q(second);
  p.join();
  q.join();
}
)";

TEST(CheckModule, LockOrderInversionNamesAllFourAcquisitions) {
  CheckResult r = CheckSource(kAbbaBuggy);
  auto deadlocks = OfKind(r, kDeadlock);
  ASSERT_EQ(deadlocks.size(), 1u);
  EXPECT_EQ(Lines(deadlocks[0]),
            (std::set<unsigned>{LineOf(kAbbaBuggy, "// A1"), LineOf(kAbbaBuggy, "// B1"),
                                LineOf(kAbbaBuggy, "// B2"), LineOf(kAbbaBuggy, "// A2")}));
  EXPECT_TRUE(OfKind(r, kRace).empty());
}

TEST(CheckModule, SameLockOrderAndScopedLockAreClean) {
  std::string fixed = Replace(kAbbaBuggy,
                              "  std::lock_guard<std::mutex> gb(b);  // B2\n  std::lock_guard<std::mutex> ga(a);  // A2",
                              "  std::scoped_lock both(b, a);");
  EXPECT_TRUE(CheckSource(fixed).findings.empty());
}

const char* kSelfBuggy = R"(#include <mutex>
std::mutex m;
int x;
void inner() { std::lock_guard<std::mutex> g(m); x++; }  // RELOCK
int main() {
  std::lock_guard<std::mutex> g(m);  // FIRST
  inner();
}
)";

TEST(CheckModule, SelfDeadlockNamesTheFirstLockAndTheRelock) {
  CheckResult r = CheckSource(kSelfBuggy);
  auto deadlocks = OfKind(r, kDeadlock);
  ASSERT_EQ(deadlocks.size(), 1u);
  EXPECT_EQ(Lines(deadlocks[0]),
            (std::set<unsigned>{LineOf(kSelfBuggy, "// FIRST"), LineOf(kSelfBuggy, "// RELOCK")}));
}

TEST(CheckModule, RecursiveMutexMayBeRelocked) {
  std::string fixed = kSelfBuggy;
  for (size_t at; (at = fixed.find("std::mutex")) != std::string::npos;) fixed.replace(at, 10, "std::recursive_mutex");
  EXPECT_TRUE(CheckSource(fixed).findings.empty());
}

const char* kJoinUnderLockBuggy = R"(#include <thread>
#include <mutex>
std::mutex m;
int x;
int main() {
  std::thread t([] { std::lock_guard<std::mutex> g(m); x++; });  // NEEDS
  std::lock_guard<std::mutex> g(m);  // HOLDS
  t.join();  // JOIN
}
)";

TEST(CheckModule, JoinWhileHoldingTheLockTheThreadNeeds) {
  CheckResult r = CheckSource(kJoinUnderLockBuggy);
  auto deadlocks = OfKind(r, kDeadlock);
  ASSERT_EQ(deadlocks.size(), 1u);
  EXPECT_EQ(Lines(deadlocks[0]),
            (std::set<unsigned>{LineOf(kJoinUnderLockBuggy, "// NEEDS"), LineOf(kJoinUnderLockBuggy, "// HOLDS"),
                                LineOf(kJoinUnderLockBuggy, "// JOIN")}));
}

const char* kCondUnderLockBuggy = R"(#include <mutex>
#include <condition_variable>
#include <thread>
std::mutex outer, inner;
std::condition_variable cv;
bool ready;
int main() {
  std::thread notifier([] {
    std::lock_guard<std::mutex> o(outer);  // BLOCKS
    { std::lock_guard<std::mutex> i(inner); ready = true; }
    cv.notify_one();
  });
  std::lock_guard<std::mutex> o(outer);  // HOLDS
  std::unique_lock<std::mutex> i(inner);
  cv.wait(i, [] { return ready; });  // WAITS
  notifier.join();
}
)";

TEST(CheckModule, WaitingOnACondvarWhileHoldingTheNotifiersLock) {
  CheckResult r = CheckSource(kCondUnderLockBuggy);
  auto deadlocks = OfKind(r, kDeadlock);
  ASSERT_EQ(deadlocks.size(), 1u);
  EXPECT_EQ(Lines(deadlocks[0]),
            (std::set<unsigned>{LineOf(kCondUnderLockBuggy, "// BLOCKS"), LineOf(kCondUnderLockBuggy, "// HOLDS"),
                                LineOf(kCondUnderLockBuggy, "// WAITS")}));
  EXPECT_TRUE(OfKind(r, kRace).empty());
}

TEST(CheckModule, RaceBehindThreeInputBranchesIsReached) {
  // Only one run in eight takes all three sides; runs go on while they reach
  // new code, so the race is found although main alone has 8 minimum runs.
  const char* source = R"(#include <thread>
int x;
int main(int argc, char** argv) {
  std::thread t([] { x = 1; });  // A
  if (argc > 1)
    if (argv[1][0] == 'a')
      if (argv[1][1] == 'b') x = 2;  // B
  t.join();
}
)";
  CheckResult r = CheckSource(source);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
}

// ------------------------------------------------------------------ entries

const char* kLibraryBuggy = R"(#include <mutex>
class Account {
 public:
  void deposit(int n);
  int balance() const;
 private:
  mutable std::mutex m_;
  int total_ = 0;
};
void Account::deposit(int n) { std::lock_guard<std::mutex> g(m_); total_ += n; }  // A
int Account::balance() const { return total_; }  // B
)";

TEST(CheckModule, LibraryWithoutMainIsCheckedFromTheMiddle) {
  CheckResult r = CheckSource(kLibraryBuggy);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kLibraryBuggy, "// A"), LineOf(kLibraryBuggy, "// B")}));
  EXPECT_GE(r.entries.size(), 3u);  // deposit||deposit, deposit||balance, balance||balance
}

TEST(CheckModule, LibraryFixedTwinIsClean) {
  std::string fixed = Replace(kLibraryBuggy, "{ return total_; }",
                              "{ std::lock_guard<std::mutex> g(m_); return total_; }");
  EXPECT_TRUE(CheckSource(fixed).findings.empty());
}

TEST(CheckModule, LibraryClassThatStartsThreadsIsCheckedFromTheMiddle) {
  const char* source = R"(#include <thread>
#include <vector>
class Crawler {
 public:
  void start(int n);
  int pages() const;
 private:
  std::vector<std::thread> workers_;
  int pages_ = 0;
};
void Crawler::start(int n) {
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { ++pages_; });  // A
}
int Crawler::pages() const { return pages_; }  // B
)";
  CheckResult r = CheckSource(source);
  bool found = false;
  for (const CheckFinding& f : OfKind(r, kRace))
    found |= Lines(f) == std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")};
  EXPECT_TRUE(found);
  EXPECT_TRUE(OfKind(r, kDeadlock).empty());
}

TEST(CheckModule, LibraryObjectWithoutConstructorKeepsItsRecursiveMutexRecursive) {
  // No constructor is in the module (the implicit one is never used), so the
  // invented object is zeroed; its recursive_mutex must still be recursive.
  const char* source = R"(#include <mutex>
class Registry {
 public:
  void add(int v);
  void touch();
 private:
  std::recursive_mutex m_;
  int total_ = 0, touches_ = 0;
};
void Registry::add(int v) { std::lock_guard<std::recursive_mutex> g(m_); total_ += v; touch(); }
void Registry::touch() { std::lock_guard<std::recursive_mutex> g(m_); ++touches_; }
)";
  CheckResult r = CheckSource(source);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.entries.size(), 3u);
}

TEST(CheckModule, LibraryFreeFunctionsArePairedOnTheirGlobals) {
  const char* source = R"(#include <mutex>
static std::mutex m;
static int hits;
void record() { std::lock_guard<std::mutex> g(m); ++hits; }  // A
int peek() { return hits; }  // B
)";
  CheckResult r = CheckSource(source);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
  EXPECT_EQ(races[0].variable, "hits");
}

TEST(CheckModule, ThreadStartersAreEntriesWhenMainNeverGetsThere) {
  // main's loop spends every run's budget; spawn() is then started from the
  // middle, as the function that starts the threads.
  const char* source = R"(#include <thread>
int x;
void spawn() {
  std::thread t([] { x = 1; });  // A
  x = 2;  // B
  t.join();
}
int main() {
  for (long i = 0; i < 100000000; ++i) {}
  spawn();
}
)";
  CheckOptions options;
  options.max_steps_total = 3'000'000;
  options.max_steps_per_run = 200'000;
  CheckResult r = CheckSource(source, false, options);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
  EXPECT_EQ(races[0].entry, "spawn()");
}

TEST(CheckModule, StaticConstructorThreadsAreSeen) {
  const char* source = R"(#include <thread>
int hits;
struct Starter {
  std::thread t;
  Starter() : t([] { hits++; }) {}  // A
  ~Starter() { t.join(); }
};
Starter starter;
int main() { return hits; }  // B
)";
  CheckResult r = CheckSource(source);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
}

const char* kSharedMutexAbbaBuggy = R"(#include <mutex>
#include <shared_mutex>
#include <thread>
std::shared_mutex routes;
std::mutex stats;
int hits;
void lookup() {
  std::shared_lock<std::shared_mutex> r(routes);  // R1
  std::lock_guard<std::mutex> s(stats);  // S1
  ++hits;
}
void prune() {
  std::lock_guard<std::mutex> s(stats);  // S2
  std::unique_lock<std::shared_mutex> w(routes);  // W2
  hits = 0;
}
int main() {
  std::thread a(lookup), b(prune);
  a.join();
  b.join();
}
)";

TEST(CheckModule, ReaderLockAndMutexInversionIsADeadlock) {
  CheckResult r = CheckSource(kSharedMutexAbbaBuggy);
  auto deadlocks = OfKind(r, kDeadlock);
  ASSERT_EQ(deadlocks.size(), 1u);
  EXPECT_EQ(Lines(deadlocks[0]),
            (std::set<unsigned>{LineOf(kSharedMutexAbbaBuggy, "// R1"), LineOf(kSharedMutexAbbaBuggy, "// S1"),
                                LineOf(kSharedMutexAbbaBuggy, "// S2"), LineOf(kSharedMutexAbbaBuggy, "// W2")}));
}

const char* kMapBuggy = R"(#include <map>
#include <mutex>
#include <thread>
std::mutex m;
std::map<int, int> table;
int main() {
  std::thread t([] { std::lock_guard<std::mutex> g(m); table[1] = 2; });  // A
  int n = table.count(1);  // B
  t.join();
  return n;
}
)";

TEST(CheckModule, UnlockedMapReaderRacesWithTheWriter) {
  CheckResult r = CheckSource(kMapBuggy);
  auto races = OfKind(r, kRace);
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(kMapBuggy, "// A"), LineOf(kMapBuggy, "// B")}));
}

TEST(CheckModule, LockedMapReaderIsClean) {
  std::string fixed = Replace(kMapBuggy, "int n = table.count(1);", "int n; { std::lock_guard<std::mutex> g(m); n = table.count(1); }");
  EXPECT_TRUE(CheckSource(fixed).findings.empty());
}

TEST(CheckModule, ContainersComputeConcreteValues) {
  // The write in main happens only if the containers gave wrong (or unknown)
  // answers; with the models they are exact, so nothing races.
  const char* source = R"(#include <map>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
int shared;
int main() {
  std::map<int, int> m;
  for (int i = 5; i > 0; --i) m[i] = i * 10;
  int s = 0;
  for (auto& [k, v] : m) s = s * 10 + k;
  std::unordered_map<std::string, int> u;
  u["a"] = 1;
  u["b"] = 2;
  u["a"] += 5;
  std::set<int> st{3, 1, 2};
  const bool good = s == 12345 && u["a"] == 6 && u.size() == 2 && *st.rbegin() == 3;
  std::thread t([] { shared = 1; });
  if (!good) shared = 2;
  t.join();
}
)";
  EXPECT_TRUE(CheckSource(source).findings.empty());
}

TEST(CheckModule, SharedPtrCopiesAndBarrierAreClean) {
  const char* source = R"(#include <barrier>
#include <memory>
#include <thread>
std::shared_ptr<int> g = std::make_shared<int>(5);
int partial[2];
int main() {
  std::barrier<> done(2);
  std::thread a([&] { auto c = g; partial[1] = *c; (void)done.arrive(); });
  auto c = g;
  partial[0] = *c;
  done.arrive_and_wait();
  int total = partial[0] + partial[1];
  a.join();
  return total;
}
)";
  EXPECT_TRUE(CheckSource(source).findings.empty());
}

TEST(CheckModule, GoogleTestBodiesAreEntries) {
  const char* source = R"(#include <gtest/gtest.h>
#include <thread>
int hits;
TEST(Counter, TwoThreads) {
  std::thread a([] { hits++; });  // A
  hits++;  // B
  a.join();
}
)";
  CheckResult r = CheckSource(source);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
  EXPECT_EQ(races[0].entry, "Counter_TwoThreads_Test");
}

TEST(CheckModule, GoogleTestFixturesGetTheirSetUp) {
  // The race is on the object SetUp allocates; without SetUp `box` is null
  // and nothing is accessed.
  const char* source = R"(#include <gtest/gtest.h>
#include <thread>
struct Box { int value = 0; };
class Fixture : public ::testing::Test {
 protected:
  void SetUp() override { box = new Box; }
  void TearDown() override { delete box; }
  Box* box = nullptr;
};
TEST_F(Fixture, Race) {
  std::thread t([this] { box->value = 1; });  // A
  box->value = 2;  // B
  t.join();
}
)";
  CheckResult r = CheckSource(source);
  auto races = OfKind(r, kRace);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(Lines(races[0]), (std::set<unsigned>{LineOf(source, "// A"), LineOf(source, "// B")}));
  EXPECT_EQ(races[0].variable, "Box.value");
}

// ------------------------------------------------- budgets, seeds, bad IR

TEST(CheckModule, SameSeedSameFindingsAndStepsWithinBudget) {
  CheckOptions options;
  options.seed = 99;
  CheckResult a = CheckSource(kCounterBuggy, false, options);
  CheckResult b = CheckSource(kCounterBuggy, false, options);
  EXPECT_EQ(a.steps, b.steps);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  options.max_steps_total = 500;
  CheckResult small = CheckSource(kCounterBuggy, false, options);
  EXPECT_LE(small.steps, 500u);
}

TEST(CheckModule, InlineAsmAndUnknownCallsBecomeUnknownWithOneNote) {
  const char* ir = R"(
declare i32 @external(i32*)
define i32 @main() {
entry:
  %x = alloca i32
  %v = call i32 asm sideeffect "movl $$1, $0", "=r"()
  %w = call i32 asm sideeffect "movl $$1, $0", "=r"()
  %e = call i32 @external(i32* %x)
  %c = icmp eq i32 %v, 0
  br i1 %c, label %a, label %b
a:
  ret i32 0
b:
  ret i32 1
}
)";
  CheckResult r = CheckIR(ir);
  EXPECT_TRUE(r.findings.empty());
  ASSERT_EQ(r.notes.size(), 1u);  // one note per site: both asm calls have no location
  EXPECT_NE(r.notes[0].message.find("inline assembly"), std::string::npos);
  EXPECT_GT(r.runs, 0u);
}

TEST(CheckModule, ModuleWithoutEntryIsAOneLineError) {
  EXPECT_THROW(CheckIR("declare void @f()\n"), std::runtime_error);
}

TEST(CheckModule, RecursionDeeperThanTheBudgetStops) {
  const char* ir = R"(
define i32 @down(i32 %n) {
  %r = call i32 @down(i32 %n)
  ret i32 %r
}
define i32 @main() {
  %r = call i32 @down(i32 1)
  ret i32 %r
}
)";
  CheckResult r = CheckIR(ir);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_LT(r.steps, 10000u);
}

}  // namespace
}  // namespace snag::interp
