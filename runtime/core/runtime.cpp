#include "core/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/findings.h"
#include "core/options.h"
#include "core/platform.h"

// Exported: instrumented shared libraries store into it.
__attribute__((visibility("default"))) SNAG_TLS snag_site_t __snag_call_site;

namespace snag {

namespace {

class IdleEngine final : public Engine {
 public:
  const char *name() const override { return "none"; }
};
IdleEngine g_idle_engine;

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

void start(const char *options_text) {
  options().parse(options_text);
  ThreadState *main_thread = current_thread();
  findings_init();
  const char *requested = options().get("engine");
  const char *name = requested ? requested : "race";
  Engine *engine = cstr_eq(name, "none") ? &g_idle_engine : create_engine(name);
  if (!engine) {
    // The default engine may be absent from a build; only an explicit
    // request for an engine this build lacks deserves a message.
    if (requested) {
      char message[160] = "SNAG_OPTIONS: this runtime has no engine '";
      copy_text(message + cstr_len(message), 100, name);
      copy_text(message + cstr_len(message), 20, "'; running without one");
      print_error(message);
    }
    engine = &g_idle_engine;
  }
  g_engine = engine;
  g_access_hook = engine->access_hook;
  {
    RuntimeScope scope(main_thread);
    engine->on_start(*main_thread);
  }
  if (options().get_bool("verbosity", false)) {
    char message[160] = "runtime started, engine ";
    copy_text(message + cstr_len(message), 100, engine->name());
    print_error(message);
  }
  options().warn_unused();
  atexit(at_exit);
  g_started = true;
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

Engine *g_engine = &g_idle_engine;
AccessHook g_access_hook = nullptr;
bool g_started = false;

void ensure_started() { start_once(getenv("SNAG_OPTIONS")); }

Verdict emit(ThreadState *t, const Event &e) {
  RuntimeScope scope(t);
  return g_engine->on_event(*t, e);
}

void note_exit_status(int status) { g_exit_status.store(status); }

snag_site_t caller_site() { return __snag_call_site; }

int finish_process(int status) {
  if (g_finished.exchange(true)) return 0;
  ThreadState *t = current_thread();
  {
    Event e{EventKind::kProgramExit};
    e.value = static_cast<uint64_t>(status);
    emit(t, e);
    RuntimeScope scope(t);
    g_engine->on_exit(status);
  }
  uint64_t found = findings_finish();
  if (found == 0) return 0;
  return static_cast<int>(options().get_u64("exitcode", 66));
}

}  // namespace snag
