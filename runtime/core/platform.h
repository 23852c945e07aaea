// Small building blocks shared by the whole runtime: attributes, raw output
// that never allocates, and a fatal-error path. The runtime is linked into the
// user's program and must never call malloc or take a libc lock on its own
// account, so everything here goes straight to system calls.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SNAG_ALWAYS_INLINE inline __attribute__((always_inline))
#define SNAG_NOINLINE __attribute__((noinline))
#define SNAG_LIKELY(x) __builtin_expect(!!(x), 1)
#define SNAG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SNAG_TLS __thread __attribute__((tls_model("initial-exec")))
#define SNAG_INTERFACE extern "C" __attribute__((visibility("default")))
// A definition of a libc, libpthread or annotation function. Weak, so that a
// program that defines a function of the same name itself (its own `send`,
// its own no-op AnnotateHappensBefore) still links and keeps its own.
#define SNAG_INTERCEPTOR extern "C" __attribute__((visibility("default"), weak))

namespace snag {

// A system call that bypasses libc's syscall() (which the runtime intercepts
// to see futex waits).
long raw_syscall(long number, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0, long a5 = 0,
                 long a6 = 0);

// Writes all of `len` bytes to `fd`, retrying on EINTR and short writes.
void write_all(int fd, const char *data, size_t len);

// Prints "snag: <message>" and a newline on stderr in one write.
void print_error(const char *message);

// Prints the message and ends the process with status 2. For broken
// invariants of the runtime itself, never for user errors that can be survived.
[[noreturn]] void fatal(const char *message);

// Length of a NUL-terminated string (the runtime avoids libc string calls that
// the user's program may have replaced).
size_t cstr_len(const char *s);
bool cstr_eq(const char *a, const char *b);
bool cstr_starts_with(const char *s, const char *prefix);
// Copies the NUL-terminated `src` into `dst`, truncating to `capacity`.
void copy_text(char *dst, size_t capacity, const char *src);
void copy_bytes(void *dst, const void *src, size_t n);
void fill_bytes(void *dst, int value, size_t n);

// The CPUs this process may run on (its affinity mask; 1,024 CPUs cover
// every machine this runs on). False when the kernel does not tell.
struct CpuSet {
  static constexpr unsigned kBits = 1024, kWordBits = 8 * sizeof(unsigned long);
  unsigned long words[kBits / kWordBits] = {};
  bool has(unsigned cpu) const { return cpu < kBits && (words[cpu / kWordBits] >> (cpu % kWordBits)) & 1; }
  void add(unsigned cpu) {
    if (cpu < kBits) words[cpu / kWordBits] |= 1ul << (cpu % kWordBits);
  }
  unsigned count() const;
};
bool allowed_cpus(CpuSet &out);
// Restricts the calling thread to `cpus`; false when the kernel refuses
// (a container may forbid it).
bool set_allowed_cpus(const CpuSet &cpus);

// How many CPUs this process may run on (its affinity mask), at least 1.
unsigned cpus_available();

// Tells the CPU this thread is busy-waiting: it backs off the memory bus
// and lets a sibling hyper-thread run.
SNAG_ALWAYS_INLINE void cpu_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Parses a decimal (or 0x-prefixed hex) unsigned number; false if malformed.
bool parse_u64(const char *s, size_t len, uint64_t *out);

// The running program's file name without its directory (from
// /proc/self/exe), for the program line of the files engines keep between
// runs; `fallback` when it cannot be read.
const char *program_file_name(const char *fallback);

}  // namespace snag
