// What a thread's start needs to know of the calling thread, read from
// glibc's descriptor of it (struct pthread, at pthread_self()) where the
// system calls and library calls that tell it cost more than the rest of a
// short thread's start: its stack. Where the words sit is learned by value
// from the library's answer on the first threads.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag {

// [*begin, *begin + *size): the calling thread's stack, below its guard
// page (pthread_attr_getstack of pthread_getattr_np's attributes). False
// when glibc cannot tell (then nothing is written).
//
// pthread_getattr_np takes the descriptor's lock, asks the kernel for the
// thread's CPU affinity (sched_getaffinity) and mallocs and frees twice for
// it, through the runtime's own malloc interceptor: ~0.6 us and a system
// call at every thread start (race_bench.txt section 99). The stack comes
// from three words of the thread's descriptor (glibc's struct pthread:
// stackblock, stackblock_size, guardsize, in that order); where they sit is
// learned from pthread_getattr_np's answer on a thread with a stack block
// (any thread but the main one), found by value in its descriptor, and each
// later answer read from them is checked against the caller's own stack
// pointer (outside: pthread_getattr_np's answer is taken).
bool current_thread_stack(uintptr_t *begin, size_t *size);

// The descriptor offset learned (-1 while none is), for tests.
long thread_stack_descriptor_offset();

// Learns the offset of the three words in `descriptor` (bytes up to
// `readable`) holding the stack block of [begin, begin + size) with a guard
// of `guard` bytes below it (stackblock = begin - guard, stackblock_size =
// size + guard, guardsize = guard); -1 if no place holds them. For tests.
long find_stack_words(const unsigned char *descriptor, size_t readable, uintptr_t begin, size_t size);

}  // namespace snag
