#include "core/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/findings.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/program_defaults.h"

// Exported: instrumented shared libraries store into it.
__attribute__((visibility("default"))) SNAG_TLS snag_site_t __snag_call_site;

namespace snag {

namespace {

std::atomic<bool> g_finished{false};
std::atomic<int> g_exit_status{0};

void at_exit() {
  int status = finish_process(g_exit_status.load());
  if (status != 0) {
    // Like ThreadSanitizer: a program run alone that reported something exits
    // with the configured status. Flush stdio first, since _exit skips it.
    fflush(nullptr);
    _exit(status);
  }
}

// Parses engine=A+B+...: A leads, the others observe. Returns false (after
// saying why) when a name is unknown to this build or the list is too long.
bool choose_engines(const char *list) {
  Engine *chosen[kMaxEngines];
  int count = 0;
  const char *p = list;
  while (*p) {
    const char *end = p;
    while (*end && *end != '+') ++end;
    char name[32];
    size_t length = static_cast<size_t>(end - p);
    if (length == 0 || length >= sizeof name || count == kMaxEngines) {
      print_error("SNAG_OPTIONS: engine= takes up to 4 engine names joined by '+'; running without one");
      return false;
    }
    copy_bytes(name, p, length);
    name[length] = 0;
    Engine *engine = cstr_eq(name, "none") ? nullptr : create_engine(name);
    if (!engine && !cstr_eq(name, "none")) {
      char message[160] = "SNAG_OPTIONS: this runtime has no engine '";
      copy_text(message + cstr_len(message), 40, name);
      copy_text(message + cstr_len(message), 40, "'; running without one");
      print_error(message);
      return false;
    }
    if (engine) chosen[count++] = engine;
    p = *end ? end + 1 : end;
  }
  // Observers first, the leader (the first named) last.
  for (int i = 1; i < count; ++i) g_engines[g_engine_count++] = chosen[i];
  if (count > 0) g_engines[g_engine_count++] = chosen[0];
  return true;
}

void start(const char *options_text) {
  static char with_defaults[4096];
  options().parse(options_with_program_defaults(with_defaults, sizeof with_defaults, options_text));
  ThreadState *main_thread = current_thread();
  findings_init();
  const char *requested = options().has("engine") ? options().text("engine") : nullptr;
  // The default engine may be absent from a build; only an explicit request
  // for an engine this build lacks deserves a message.
  if (requested) {
    choose_engines(requested);
  } else if (Engine *race = create_engine("race")) {
    g_engines[g_engine_count++] = race;
  }
  {
    RuntimeScope scope(main_thread);
    for (int i = 0; i < g_engine_count; ++i) g_engines[i]->on_start(*main_thread);
  }
  update_engine_hooks();
  // Spinning helps only when the holder runs on another CPU meanwhile.
  g_mutex_spin = cpus_available() > 1 ? static_cast<uint32_t>(options().number("mutex_spin")) : 0;
  if (options().flag("verbosity")) {
    char message[160] = "runtime started, engine ";
    Engine *leader = leading_engine();
    copy_text(message + cstr_len(message), 100, leader ? leader->name() : "none");
    print_error(message);
  }
  atexit(at_exit);
  g_started = true;
}

// Compiler-marked API calls as events, for engines without API hooks or
// when several engines want them.
void emit_api_begin(ThreadState &t, uintptr_t object, uint32_t flags, snag_site_t site) {
  Event e{EventKind::kApiBegin};
  e.addr = object;
  e.flags = flags;
  e.site = site;
  emit(&t, e);
}

void emit_api_end(ThreadState &t, uintptr_t object, uint32_t, snag_site_t site) {
  Event e{EventKind::kApiEnd};
  e.addr = object;
  e.site = site;
  emit(&t, e);
}

// Several engines want accesses: each sees every one, in engine order.
void dispatch_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                     snag_site_t site) {
  for (int i = 0; i < g_engine_count; ++i)
    if (AccessHook hook = g_engines[i]->access_hook) hook(t, addr, size, flags, site);
}

std::atomic<bool> g_starting{false};

void start_once(const char *options_text) {
  if (g_started || g_starting.exchange(true)) return;  // started, or re-entered
  start(options_text);
}

// Runs before any constructor of the program, so that threads and locks made
// by constructors are seen too. libc's getenv does not work yet at this
// point, so the environment is read from the arguments the loader passes.
void preinit(int, char **, char **envp) {
  const char *text = nullptr;
  for (char **e = envp; e && *e; ++e)
    if (cstr_starts_with(*e, "SNAG_OPTIONS=")) text = *e + 13;
  start_once(text);
}
__attribute__((section(".preinit_array"), used)) void (*g_preinit)(int, char **, char **) = preinit;

}  // namespace

Engine *g_engines[kMaxEngines];
int g_engine_count = 0;
AccessHook g_access_hook = nullptr;
bool g_wants_api_calls = false;
ApiHook g_api_begin_hook = nullptr;
ApiHook g_api_end_hook = nullptr;
EventHook g_atomic_hook = nullptr;
EventHook g_heap_hook = nullptr;
EventHook g_sync_hook = nullptr;
SNAG_INTERFACE int __snag_api_calls_wanted = 0;
// 1 (every hook, as if nothing were covered) until the race engine runs alone.
SNAG_INTERFACE int __snag_every_access = 1;
bool g_started = false;
uint32_t g_mutex_spin = 0;

Engine *leading_engine() { return g_engine_count ? g_engines[g_engine_count - 1] : nullptr; }

void update_engine_hooks() {
  int with_hooks = 0, api = 0;
  AccessHook only = nullptr;
  Engine *api_engine = nullptr;
  for (int i = 0; i < g_engine_count; ++i) {
    if (g_engines[i]->access_hook) {
      ++with_hooks;
      only = g_engines[i]->access_hook;
    }
    if (g_engines[i]->wants_api_calls) {
      ++api;
      api_engine = g_engines[i];
    }
  }
  g_access_hook = with_hooks > 1 ? dispatch_access : only;
  g_wants_api_calls = api > 0;
  __atomic_store_n(&__snag_api_calls_wanted, api > 0 ? 1 : 0, __ATOMIC_RELAXED);
  bool direct = api == 1 && api_engine->api_begin_hook && api_engine->api_end_hook;
  g_api_begin_hook = api == 0 ? nullptr : direct ? api_engine->api_begin_hook : emit_api_begin;
  g_api_end_hook = api == 0 ? nullptr : direct ? api_engine->api_end_hook : emit_api_end;
  g_atomic_hook = g_engine_count == 1 ? g_engines[0]->atomic_hook : nullptr;
  g_heap_hook = g_engine_count == 1 ? g_engines[0]->heap_hook : nullptr;
  g_sync_hook = g_engine_count == 1 ? g_engines[0]->sync_hook : nullptr;
  // The race engine learns nothing from an access an earlier one covers
  // (compiler/plugin/RedundantAccesses.h); explore schedules at it and the
  // others watch each one.
  bool race_alone = g_engine_count == 1 && cstr_eq(g_engines[0]->name(), "race");
  __atomic_store_n(&__snag_every_access, race_alone ? 0 : 1, __ATOMIC_RELAXED);
}

void ensure_started() { start_once(getenv("SNAG_OPTIONS")); }

Verdict emit(ThreadState *t, const Event &e) {
  RuntimeScope scope(t);
  Verdict verdict;
  for (int i = 0; i < g_engine_count; ++i) verdict = g_engines[i]->on_event(*t, e);
  return verdict;  // the leader's: it comes last
}

void retire_thread(ThreadState *t, ThreadState *ended) {
  {
    RuntimeScope scope(t);
    for (int i = 0; i < g_engine_count; ++i) g_engines[i]->forget_thread(*ended);
  }
  thread_retire(ended);
}

void note_exit_status(int status) { g_exit_status.store(status); }

int finish_process(int status) {
  if (g_finished.exchange(true)) return 0;
  ThreadState *t = current_thread();
  {
    Event e{EventKind::kProgramExit};
    e.value = static_cast<uint64_t>(status);
    emit(t, e);
    RuntimeScope scope(t);
    for (int i = 0; i < g_engine_count; ++i) g_engines[i]->on_exit(status);
  }
  uint64_t found = findings_finish();
  if (found == 0) return 0;
  return static_cast<int>(options().number("exitcode"));
}

}  // namespace snag
