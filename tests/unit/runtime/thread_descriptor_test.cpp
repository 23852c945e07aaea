// A thread's stack and kernel id read from its descriptor
// (core/thread_descriptor.h) are pthread_getattr_np's and gettid's answers,
// for threads on glibc's stacks, on stacks of other sizes and guards, on
// stacks the program gives, and for the main thread.
#include "core/thread_descriptor.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

namespace snag {
namespace {

struct Answer {
  bool ours_known = false, library_known = false;
  uintptr_t ours_begin = 0, library_begin = 0;
  size_t ours_size = 0, library_size = 0;
};

Answer both_answers() {
  Answer a;
  a.ours_known = current_thread_stack(&a.ours_begin, &a.ours_size);
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr = nullptr;
    a.library_known = pthread_attr_getstack(&attr, &addr, &a.library_size) == 0;
    a.library_begin = reinterpret_cast<uintptr_t>(addr);
    pthread_attr_destroy(&attr);
  }
  return a;
}

void *answer_in_thread(void *out) {
  *static_cast<Answer *>(out) = both_answers();
  return nullptr;
}

Answer answer_of_thread(const pthread_attr_t *attr) {
  Answer a;
  pthread_t thread;
  EXPECT_EQ(pthread_create(&thread, attr, answer_in_thread, &a), 0);
  pthread_join(thread, nullptr);
  return a;
}

void expect_same(const Answer &a) {
  ASSERT_TRUE(a.library_known);
  ASSERT_TRUE(a.ours_known);
  EXPECT_EQ(a.ours_begin, a.library_begin);
  EXPECT_EQ(a.ours_size, a.library_size);
}

TEST(ThreadDescriptor, ThreadsOnLibraryStacksGetTheLibrarysAnswerFromTheirDescriptor) {
  for (int i = 0; i < 4; ++i) expect_same(answer_of_thread(nullptr));
  // glibc's descriptor holds the stack block: learned from the first thread.
  EXPECT_GE(thread_stack_descriptor_offset(), 0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_attr_setguardsize(&attr, 64 * 1024);
  expect_same(answer_of_thread(&attr));
  pthread_attr_destroy(&attr);
}

TEST(ThreadDescriptor, AStackTheProgramGivesIsAnsweredWhole) {
  constexpr size_t kSize = 512 * 1024;
  void *stack = aligned_alloc(4096, kSize);
  ASSERT_NE(stack, nullptr);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, kSize);
  Answer a = answer_of_thread(&attr);
  expect_same(a);
  EXPECT_EQ(a.ours_begin, reinterpret_cast<uintptr_t>(stack));
  EXPECT_EQ(a.ours_size, kSize);
  pthread_attr_destroy(&attr);
  free(stack);
}

TEST(ThreadDescriptor, TheMainThreadHasNoStackBlockAndGetsTheLibrarysAnswer) {
  expect_same(both_answers());
}

TEST(ThreadDescriptor, TheWordsAreFoundByValueOrNotAtAll) {
  uintptr_t descriptor[64] = {};
  const uintptr_t block = 0x7f0000000000, guard = 4096, block_size = 8 * 1024 * 1024 + guard;
  descriptor[20] = block;  // a near miss: the size is wrong
  descriptor[21] = block_size + 8;
  descriptor[22] = guard;
  descriptor[40] = block;
  descriptor[41] = block_size;
  descriptor[42] = guard;
  const auto *bytes = reinterpret_cast<const unsigned char *>(descriptor);
  EXPECT_EQ(find_stack_words(bytes, sizeof descriptor, block + guard, block_size - guard), 40 * 8);
  // Not found when the words lie past what may be read, or are not there.
  EXPECT_EQ(find_stack_words(bytes, 42 * 8, block + guard, block_size - guard), -1);
  EXPECT_EQ(find_stack_words(bytes, sizeof descriptor, block, block_size), -1);
}

}  // namespace
}  // namespace snag
