#include "core/native_stack.h"

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/platform.h"

// libstdc++'s demangler, when the program has it (C programs do not).
extern "C" char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status)
    __attribute__((weak));

namespace snag {

namespace {

struct Symbol {
  bool found = false;       // a loaded module holds the address
  const void *base = nullptr;
  const char *module = nullptr;
  const char *name = nullptr;  // the exported function around it, if any
};

Symbol symbol_at(uintptr_t address) {
  Symbol s;
  Dl_info info;
  void *entry = nullptr;  // the symbol's ElfW(Sym)
  if (!dladdr1(reinterpret_cast<void *>(address), &info, &entry, RTLD_DL_SYMENT)) return s;
  auto *sym = static_cast<const ElfW(Sym) *>(entry);
  s.found = true;
  s.base = info.dli_fbase;
  s.module = info.dli_fname;
  // dladdr names the nearest exported symbol below the address even when
  // the address lies past its end, in a function that is not exported.
  uintptr_t start = reinterpret_cast<uintptr_t>(info.dli_saddr);
  if (info.dli_sname && sym && address >= start && address < start + sym->st_size)
    s.name = info.dli_sname;
  return s;
}

// Where the module the runtime is linked into (the executable) is loaded.
const void *runtime_module_base() {
  return symbol_at(reinterpret_cast<uintptr_t>(&capture_native_stack)).base;
}

// The executable's own path: dladdr gives argv[0], which may be relative.
const char *executable_path() {
  static char path[4096];
  if (!path[0]) {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
  }
  return path;
}

}  // namespace

void capture_native_stack(StackTrace *out) {
  out->depth = 0;
  constexpr int kMaxRaw = kMaxStackFrames + 64;  // room for the runtime's own frames
  void *raw[kMaxRaw];
  int n = backtrace(raw, kMaxRaw);
  // The runtime is linked into the executable, so its frames lead. The
  // program called into it at an exported entry point (an interceptor such
  // as pthread_cond_destroy, or a __snag_ hook); the runtime's internal
  // functions are not exported. So the program's part starts at the
  // outermost frame of the leading run that lies inside an exported
  // function of the runtime's module.
  const void *runtime_base = runtime_module_base();
  int first = 0;
  for (int i = 0; i < n; ++i) {
    Symbol s = symbol_at(reinterpret_cast<uintptr_t>(raw[i]));
    if (!s.found || s.base != runtime_base) break;
    if (s.name) first = i;
  }
  for (int i = first; i < n && out->depth < kMaxStackFrames; ++i) {
    // A return address: the call is the instruction before it.
    uintptr_t call = reinterpret_cast<uintptr_t>(raw[i]) - 1;
    out->frames[out->depth++] = kCodeAddressTag | call;
  }
}

bool locate_code(uintptr_t address, CodeLocation *out, char *name, uint32_t name_capacity) {
  Symbol s = symbol_at(address);
  if (!s.found) return false;
  auto *header = static_cast<const ElfW(Ehdr) *>(s.base);
  bool executable = s.base == runtime_module_base();
  out->module = executable || !s.module || !s.module[0] ? executable_path() : s.module;
  // A position-dependent executable's addresses are its own; a PIE's or a
  // shared library's are relative to where it was loaded.
  out->offset = header->e_type == ET_EXEC ? address : address - reinterpret_cast<uintptr_t>(s.base);
  out->function = nullptr;
  if (s.name && name && name_capacity) {
    int status = -1;
    char *demangled = __cxa_demangle ? __cxa_demangle(s.name, nullptr, nullptr, &status) : nullptr;
    copy_text(name, name_capacity, status == 0 && demangled ? demangled : s.name);
    if (demangled) free(demangled);
    out->function = name;
  }
  return true;
}

}  // namespace snag
