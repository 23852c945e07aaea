#include "core/findings.h"

#include <fcntl.h>
#include <new>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/finding_text.h"
#include "core/internal_alloc.h"
#include "core/kept_file.h"
#include "core/native_stack.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/sites.h"
#include "core/spinlock.h"
#include "core/suppressions.h"
#include "core/text_buffer.h"

namespace snag {

namespace {

enum class Sink { kTextStderr, kJsonStderr, kJsonFd };

Sink g_sink = Sink::kTextStderr;
KeptFile g_findings_file;  // with Sink::kJsonFd
uint64_t g_seed;
std::atomic<uint64_t> g_reported{0};
std::atomic<uint64_t> g_suppressed{0};
// Engine and kind of the latest finding reported (static strings).
std::atomic<const char *> g_last_engine{""};
std::atomic<const char *> g_last_kind{""};
// Room for an exported function's demangled name in a code-address frame.
constexpr uint32_t kFunctionNameSize = 256;
// Serializes whole reports so two threads' text never interleaves.
SpinLock g_write_lock;

void collect_threads(const Finding &f, Tid *out, int *count) {
  *count = 0;
  auto add = [&](Tid t) {
    if (t == kNoThread) return;
    for (int i = 0; i < *count; ++i)
      if (out[i] == t) return;
    if (*count < Finding::kMaxThreads) out[(*count)++] = t;
  };
  for (int i = 0; i < f.thread_count; ++i) add(f.threads[i]);
  for (int i = 0; i < f.side_count; ++i) add(f.sides[i].thread);
}

// ---- JSON ----

// A code address outside instrumented code (native_stack.h): its module and
// offset, which `snag` symbolizes, and the exported function around it.
bool json_code_frame(TextBuffer &b, snag_site_t frame) {
  CodeLocation where;
  char name[kFunctionNameSize];
  if (!has_code_address_tag(frame) || !locate_code(code_address_of(frame), &where, name, sizeof name))
    return false;
  b.add("{\"module\":").add_json_string(where.module);
  b.add(",\"offset\":\"0x").add_hex(where.offset).add('"');
  if (where.function) b.add(",\"function\":").add_json_string(where.function);
  b.add('}');
  return true;
}

void json_frame(TextBuffer &b, snag_site_t site) {
  SiteInfo info;
  bool known = find_site(site, &info);
  if (!known && json_code_frame(b, site)) return;
  b.add("{\"site\":\"").add_hex(site, 16).add('"');
  if (known) {
    b.add(",\"function\":").add_json_string(info.function.data, info.function.size);
    b.add(",\"file\":").add_json_string(info.file.data, info.file.size);
    b.add(",\"line\":").add_u64(info.line).add(",\"column\":").add_u64(info.column);
  }
  b.add('}');
}

constexpr uint32_t kMaxReportedFrames = 96;

void json_stack(TextBuffer &b, const StackTrace &s) {
  b.add('[');
  bool first = true;
  for_each_expanded_frame(s.frames, s.depth, kMaxReportedFrames, [&](snag_site_t site) {
    if (!first) b.add(',');
    first = false;
    json_frame(b, site);
  });
  b.add(']');
}

void json_address(TextBuffer &b, uintptr_t a) { b.add('"').add_address(a).add('"'); }

void write_json(TextBuffer &b, const Finding &f) {
  b.add("{\"snag\":1,\"engine\":").add_json_string(f.engine);
  b.add(",\"kind\":").add_json_string(f.kind);
  if (f.title) b.add(",\"title\":").add_json_string(f.title);
  b.add(",\"message\":").add_json_string(f.message);
  b.add(",\"severity\":").add_json_string(f.severity);
  b.add(",\"rank\":").add_double(f.rank);
  b.add(",\"seed\":").add_u64(g_seed);
  b.add(",\"pid\":").add_u64(static_cast<uint64_t>(getpid()));
  if (f.detail_count) {
    b.add(",\"details\":{");
    for (int i = 0; i < f.detail_count; ++i) {
      if (i) b.add(',');
      b.add_json_string(f.details[i].key).add(':').add_json_string(f.details[i].value);
    }
    b.add('}');
  }
  b.add(",\"sides\":[");
  for (int i = 0; i < f.side_count; ++i) {
    const FindingSide &s = f.sides[i];
    if (i) b.add(',');
    b.add("{\"role\":").add_json_string(s.role);
    b.add(",\"description\":").add_json_string(s.description);
    if (s.thread != kNoThread) b.add(",\"thread\":").add_u64(s.thread);
    if (s.has_access) {
      b.add(",\"access\":{\"address\":");
      json_address(b, s.access_address);
      b.add(",\"size\":").add_u64(s.access_size).add(",\"kind\":").add_json_string(s.access_kind);
      b.add('}');
    }
    b.add(",\"stack\":");
    json_stack(b, s.stack);
    if (s.lock_count) {
      b.add(",\"locks\":[");
      for (int l = 0; l < s.lock_count; ++l) {
        if (l) b.add(',');
        b.add("{\"address\":");
        json_address(b, s.locks[l].address);
        b.add(",\"stack\":");
        json_stack(b, s.locks[l].stack);
        b.add('}');
      }
      b.add(']');
    }
    b.add('}');
  }
  b.add(']');
  Tid threads[Finding::kMaxThreads];
  int thread_count;
  collect_threads(f, threads, &thread_count);
  b.add(",\"threads\":[");
  for (int i = 0; i < thread_count; ++i) {
    if (i) b.add(',');
    b.add("{\"id\":").add_u64(threads[i]).add(",\"name\":");
    ThreadState *named = thread_by_tid(threads[i]);
    if (named && named->name[0]) b.add_json_string(named->name);
    else b.add("\"T").add_u64(threads[i]).add('"');
    if (ThreadState *t = named) {
      if (t->parent != kNoThread) b.add(",\"parent\":").add_u64(t->parent);
      StackTrace creation;
      depot_get(t->creation_stack, &creation);
      b.add(",\"stack\":");
      json_stack(b, creation);
    }
    b.add('}');
  }
  b.add(']');
  if (f.has_heap) {
    b.add(",\"heap\":{\"address\":");
    json_address(b, f.heap_address);
    b.add(",\"size\":").add_u64(f.heap_size);
    if (f.heap_thread != kNoThread) b.add(",\"thread\":").add_u64(f.heap_thread);
    b.add(",\"stack\":");
    json_stack(b, f.heap_stack);
    b.add('}');
  }
  if (f.global_name[0]) {
    b.add(",\"global\":{\"name\":").add_json_string(f.global_name).add(",\"address\":");
    json_address(b, f.global_address);
    b.add(",\"size\":").add_u64(f.global_size).add('}');
  }
  b.add("}\n");
}

// ---- Text (a program run on its own), laid out by common/finding_text ----

class BufferSink final : public text::Sink {
 public:
  explicit BufferSink(TextBuffer &b) : b_(b) {}
  void write(const char *data, size_t size) override { b_.add(data, size); }

 private:
  TextBuffer &b_;
};

// The stacks of one finding resolved to function, file and line, in runtime
// memory (too big for a small thread stack), freed with the finding's text.
class ResolvedStacks {
 public:
  ResolvedStacks() = default;
  ResolvedStacks(const ResolvedStacks &) = delete;
  ResolvedStacks &operator=(const ResolvedStacks &) = delete;
  ~ResolvedStacks() {
    for (uint32_t i = 0; i < count_; ++i) internal_free(frames_[i]);
    for (uint32_t i = 0; i < name_count_; ++i) internal_free(names_[i]);
  }

  text::Stack resolve(const StackTrace &s) {
    if (s.depth == 0 || count_ == kMaxStacks) return {};
    auto *frames = internal_new_array<text::Frame>(kMaxReportedFrames);
    frames_[count_++] = frames;
    uint32_t n = 0;
    for_each_expanded_frame(s.frames, s.depth, kMaxReportedFrames, [&](snag_site_t site) {
      text::Frame &f = *new (&frames[n++]) text::Frame();
      SiteInfo info;
      CodeLocation where;
      if (find_site(site, &info)) {
        f.function = text::Str(info.function.data, info.function.size);
        f.file = text::Str(info.file.data, info.file.size);
        f.line = info.line;
        f.column = info.column;
      } else if (has_code_address_tag(site) &&
                 locate_code(code_address_of(site), &where, function_name(), kFunctionNameSize)) {
        f.function = text::Str(where.function);
        f.module = text::Str(where.module);
        f.module_offset = where.offset;
      } else {
        f.site_number = site;
      }
    });
    return {frames, n};
  }

 private:
  // A buffer for one code-address frame's function name, living as long as
  // the stacks (null names a frame by its module alone when none is left).
  char *function_name() {
    if (name_count_ == kMaxNames) return nullptr;
    return names_[name_count_++] = static_cast<char *>(internal_alloc(kFunctionNameSize));
  }

  // Sides, their locks, the heap block and the threads.
  static constexpr uint32_t kMaxStacks =
      Finding::kMaxSides * (1 + FindingSide::kMaxLocks) + 1 + Finding::kMaxThreads;
  static constexpr uint32_t kMaxNames = kMaxStackFrames;
  text::Frame *frames_[kMaxStacks];
  uint32_t count_ = 0;
  char *names_[kMaxNames];
  uint32_t name_count_ = 0;
};

// "0x..." in a fixed buffer, for the views the formatter takes.
struct AddressText {
  char text[24];
  text::Str set(uintptr_t address) {
    TextBuffer b;
    b.add_address(address).add('\0');
    copy_text(text, sizeof text, b.data());
    return text::Str(text);
  }
};

text::ThreadRef thread_ref(Tid tid) {
  text::ThreadRef ref;
  if (tid == kNoThread) return ref;
  ref.known = true;
  ref.id = tid;
  if (ThreadState *t = thread_by_tid(tid)) ref.name = text::Str(t->name[0] ? t->name : "");
  return ref;
}

// Everything the text of one finding points into.
struct FindingTextParts {
  ResolvedStacks stacks;
  text::Side sides[Finding::kMaxSides];
  text::Lock locks[Finding::kMaxSides][FindingSide::kMaxLocks];
  AddressText lock_addresses[Finding::kMaxSides][FindingSide::kMaxLocks];
  AddressText heap_address, global_address;
  text::Thread threads[Finding::kMaxThreads];
  text::Detail details[Finding::kMaxDetails];
};

void write_text(TextBuffer &b, const Finding &f) {
  auto *parts = new (internal_alloc(sizeof(FindingTextParts))) FindingTextParts();
  text::Finding t;
  t.title = text::Str(f.title);
  t.kind = text::Str(f.kind);
  t.message = text::Str(f.message);
  t.has_pid = true;
  t.pid = getpid();
  for (int i = 0; i < f.side_count; ++i) {
    const FindingSide &s = f.sides[i];
    text::Side &side = parts->sides[i];
    side.description = text::Str(s.description);
    side.stack = parts->stacks.resolve(s.stack);
    for (int l = 0; l < s.lock_count; ++l) {
      text::Lock &lock = parts->locks[i][l];
      lock.address = parts->lock_addresses[i][l].set(s.locks[l].address);
      lock.stack = parts->stacks.resolve(s.locks[l].stack);
    }
    side.locks = parts->locks[i];
    side.lock_count = uint32_t(s.lock_count);
  }
  t.sides = parts->sides;
  t.side_count = uint32_t(f.side_count);
  if (f.has_heap) {
    t.has_heap = true;
    t.heap_size = f.heap_size;
    t.heap_address = parts->heap_address.set(f.heap_address);
    t.heap_thread = thread_ref(f.heap_thread);
    t.heap_stack = parts->stacks.resolve(f.heap_stack);
  } else if (f.global_name[0]) {
    t.global_name = text::Str(f.global_name);
    t.global_size = f.global_size;
    t.global_address = parts->global_address.set(f.global_address);
  }
  Tid threads[Finding::kMaxThreads];
  int thread_count;
  collect_threads(f, threads, &thread_count);
  for (int i = 0; i < thread_count; ++i) {
    ThreadState *state = thread_by_tid(threads[i]);
    if (!state) continue;
    text::Thread &thread = parts->threads[t.thread_count++];
    thread.self = thread_ref(threads[i]);
    thread.parent = thread_ref(state->parent);
    StackTrace creation;
    depot_get(state->creation_stack, &creation);
    thread.stack = parts->stacks.resolve(creation);
  }
  t.threads = parts->threads;
  for (int i = 0; i < f.detail_count; ++i)
    parts->details[i] = {text::Str(f.details[i].key), text::Str(f.details[i].value)};
  t.details = parts->details;
  t.detail_count = uint32_t(f.detail_count);
  t.has_seed = true;
  t.seed = g_seed;
  if (f.side_count) t.primary = text::primary_frame(parts->sides[0].stack);
  BufferSink sink(b);
  text::write_finding_text(sink, t, text::Style());
  parts->~FindingTextParts();
  internal_free(parts);
}

// Raw system calls rather than libc's clock_gettime and getpid: every run
// makes this one call at start-up, and libc's wrappers sit in a part of its
// text the program itself seldom runs, so calling them mapped 64-128 KB of
// libc (fault-around) into every instrumented process (race_bench.txt
// section 53).
uint64_t clock_seed() {
  timespec ts{};
  raw_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, reinterpret_cast<long>(&ts));
  uint64_t x = static_cast<uint64_t>(ts.tv_nsec) ^ (static_cast<uint64_t>(ts.tv_sec) << 20) ^
               (static_cast<uint64_t>(raw_syscall(SYS_getpid)) << 40);
  return x % 1000000007ull;
}

}  // namespace

FindingSide &Finding::add_side() {
  if (side_count == kMaxSides) return sides[kMaxSides - 1];
  return sides[side_count++];
}

void Finding::add_detail(const char *key, const char *value) {
  if (detail_count == kMaxDetails) return;
  details[detail_count].key = key;
  copy_text(details[detail_count].value, sizeof details[0].value, value);
  ++detail_count;
}

void Finding::add_detail(const char *key, uint64_t value) {
  TextBuffer b;
  b.add_u64(value).add('\0');
  add_detail(key, b.data());
}

Finding *new_finding(const char *engine, const char *kind) {
  auto *f = new (internal_alloc(sizeof(Finding))) Finding();
  f->engine = engine;
  f->kind = kind;
  return f;
}

namespace {

// A side of what the reporting thread is doing now, with no instrumented
// frame on its stack (the program called the runtime from code snag did not
// compile): its native stack, so the report still says where.
void add_native_stacks(Finding &f) {
  ThreadState *t = current_thread();
  for (int i = 0; i < f.side_count; ++i) {
    FindingSide &side = f.sides[i];
    if (side.stack.depth == 0 && side.thread == t->tid && cstr_eq(side.role, "current")) {
      RuntimeScope scope(t);  // the unwinder's first use loads libgcc_s
      capture_native_stack(&side.stack);
    }
  }
}

}  // namespace

void report_finding(Finding *f) {
  add_native_stacks(*f);
  if (is_suppressed(*f) || !options().flag("report_bugs")) {
    g_suppressed.fetch_add(1, std::memory_order_relaxed);
    internal_free(f);
    return;
  }
  TextBuffer b;
  if (g_sink == Sink::kTextStderr) write_text(b, *f);
  else write_json(b, *f);
  {
    SpinLockGuard guard(g_write_lock);
    if (g_sink != Sink::kJsonFd) {
      b.write_to(2);
    } else if (!g_findings_file.write(b.data(), b.size())) {
      // The findings file is gone for good: stderr rather than nothing.
      print_error("the findings file is gone; reporting on stderr");
      g_sink = Sink::kTextStderr;
      b.clear();
      write_text(b, *f);
      b.write_to(2);
    }
  }
  g_last_engine.store(f->engine, std::memory_order_relaxed);
  g_last_kind.store(f->kind, std::memory_order_relaxed);
  internal_free(f);
  g_reported.fetch_add(1, std::memory_order_relaxed);
  if (options().flag("halt_on_error")) {
    findings_finish();
    raw_syscall(SYS_exit_group, static_cast<long>(options().number("exitcode")));
  }
}

void findings_init() {
  const Options &o = options();
  suppressions_init();
  g_seed = o.has("seed") ? o.number("seed") : clock_seed();
  if (const char *path = o.text("findings")) {
    if (g_findings_file.open(path, true)) {
      g_sink = Sink::kJsonFd;
      return;
    }
    print_error("cannot open the findings file from SNAG_OPTIONS; reporting on stderr");
  } else if (o.has("findings_fd")) {
    if (g_findings_file.adopt(static_cast<int>(o.number("findings_fd")))) {
      g_sink = Sink::kJsonFd;
      return;
    }
    print_error("SNAG_OPTIONS: findings_fd is not an open descriptor; reporting on stderr");
  }
  const char *format = o.text("format");
  g_sink = cstr_eq(format, "json") ? Sink::kJsonStderr : Sink::kTextStderr;
}

uint64_t findings_finish() {
  uint64_t n = g_reported.load(std::memory_order_relaxed);
  uint64_t suppressed = g_suppressed.load(std::memory_order_relaxed);
  if (g_sink == Sink::kTextStderr && (n > 0 || suppressed > 0)) {
    TextBuffer b;
    b.add("snag: reported ").add_u64(n).add(n == 1 ? " warning" : " warnings");
    if (suppressed) b.add(" (").add_u64(suppressed).add(" suppressed)");
    b.add('\n').write_to(2);
  }
  return n;
}

uint64_t findings_reported() { return g_reported.load(std::memory_order_relaxed); }

const char *last_finding_engine() { return g_last_engine.load(std::memory_order_relaxed); }
const char *last_finding_kind() { return g_last_kind.load(std::memory_order_relaxed); }

uint64_t run_seed() { return g_seed; }

}  // namespace snag
