// Message queues and semaphore sets between processes: System V msgrcv,
// msgsnd and semop / semtimedop, and POSIX mq_receive / mq_send.
//
// A POSIX queue is a descriptor, so its calls are announced like read and
// write (blocking_call.h): the caller waits in the scheduler's model until
// the queue has a message (or room). System V calls have IPC_NOWAIT and are
// made as non-blocking attempts: after a failed one the caller waits in the
// model until a thread sends, receives, operates on a semaphore set or
// removes one, and tries again; when no other thread can run, what it waits
// for can only come from another process, and it makes the blocking call.
//
// Ordering: none is told to the race engine yet (which send a receive took
// its message from is the kernel's business); a program that hands data
// through a queue between its own threads may get race reports on it.
#include <errno.h>
#include <mqueue.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <time.h>

#include "intercept/blocking_call.h"
#include "intercept/real.h"

using namespace snag;

SNAG_REAL(ssize_t, msgrcv, (int, void *, size_t, long, int))
SNAG_REAL(int, msgsnd, (int, const void *, size_t, int))
SNAG_REAL(int, semop, (int, struct sembuf *, size_t))
SNAG_REAL(int, semtimedop, (int, struct sembuf *, size_t, const struct timespec *))
SNAG_REAL(ssize_t, mq_receive, (mqd_t, char *, size_t, unsigned *))
SNAG_REAL(ssize_t, mq_timedreceive, (mqd_t, char *, size_t, unsigned *, const struct timespec *))
SNAG_REAL(int, mq_send, (mqd_t, const char *, size_t, unsigned))
SNAG_REAL(int, mq_timedsend, (mqd_t, const char *, size_t, unsigned, const struct timespec *))

namespace {

char g_ipc_changed;  // the key System V waiters try again on
constexpr size_t kMaxSemOps = 500;  // Linux's SEMOPM

bool busy(long rc, int want) { return rc < 0 && errno == want; }

template <class Attempt, class Block>
auto by_attempts(const char *name, Attempt attempt, Block block, int busy_errno,
                 bool timed = false) -> decltype(attempt()) {
  for (uint32_t n = 0;; ++n) {
    RetryStep step = before_attempt(name, &g_ipc_changed, n, timed);
    if (step == RetryStep::kTimedOut) {
      errno = EAGAIN;
      return -1;
    }
    if (step == RetryStep::kBlock) return block();
    auto rc = attempt();
    if (!busy(rc, busy_errno)) return rc;
  }
}

bool mq_wait(const char *name, mqd_t q, short events) {
  pollfd p = {q, events, 0};
  return announce_blocking_call(name, &p, 1, -1, true);
}

int semaphore_ops(const char *name, int id, struct sembuf *ops, size_t n,
                  const struct timespec *timeout) {
  wake_attempts(&g_ipc_changed);
  bool waits = n <= kMaxSemOps;
  for (size_t i = 0; i < n && waits; ++i) waits = !(ops[i].sem_flg & IPC_NOWAIT);
  if (!waits) return timeout ? real_semtimedop()(id, ops, n, timeout) : real_semop()(id, ops, n);
  struct sembuf now[kMaxSemOps];
  for (size_t i = 0; i < n; ++i) {
    now[i] = ops[i];
    now[i].sem_flg |= IPC_NOWAIT;
  }
  return by_attempts(
      name, [&] { return real_semop()(id, now, n); },
      [&] { return timeout ? real_semtimedop()(id, ops, n, timeout) : real_semop()(id, ops, n); },
      EAGAIN, timeout != nullptr);
}

}  // namespace

SNAG_INTERCEPTOR ssize_t msgrcv(int id, void *message, size_t size, long type, int flags) {
  wake_attempts(&g_ipc_changed);  // room for a sender
  if (flags & IPC_NOWAIT) return real_msgrcv()(id, message, size, type, flags);
  return by_attempts(
      "msgrcv", [&] { return real_msgrcv()(id, message, size, type, flags | IPC_NOWAIT); },
      [&] { return real_msgrcv()(id, message, size, type, flags); }, ENOMSG);
}

SNAG_INTERCEPTOR int msgsnd(int id, const void *message, size_t size, int flags) {
  wake_attempts(&g_ipc_changed);
  if (flags & IPC_NOWAIT) return real_msgsnd()(id, message, size, flags);
  return by_attempts(
      "msgsnd", [&] { return real_msgsnd()(id, message, size, flags | IPC_NOWAIT); },
      [&] { return real_msgsnd()(id, message, size, flags); }, EAGAIN);
}

SNAG_INTERCEPTOR int semop(int id, struct sembuf *ops, size_t n) {
  return semaphore_ops("semop", id, ops, n, nullptr);
}

SNAG_INTERCEPTOR int semtimedop(int id, struct sembuf *ops, size_t n,
                                const struct timespec *timeout) {
  return semaphore_ops("semtimedop", id, ops, n, timeout);
}

SNAG_INTERCEPTOR ssize_t mq_receive(mqd_t q, char *message, size_t size, unsigned *priority) {
  mq_wait("mq_receive", q, POLLIN);
  return real_mq_receive()(q, message, size, priority);
}

SNAG_INTERCEPTOR ssize_t mq_timedreceive(mqd_t q, char *message, size_t size, unsigned *priority,
                                         const struct timespec *deadline) {
  pollfd p = {q, POLLIN, 0};
  if (announce_blocking_call("mq_timedreceive", &p, 1, 0x7fffffff, true)) {
    struct timespec past = {0, 0};  // the scheduler chose the timeout
    return real_mq_timedreceive()(q, message, size, priority, &past);
  }
  return real_mq_timedreceive()(q, message, size, priority, deadline);
}

SNAG_INTERCEPTOR int mq_send(mqd_t q, const char *message, size_t size, unsigned priority) {
  mq_wait("mq_send", q, POLLOUT);
  return real_mq_send()(q, message, size, priority);
}

SNAG_INTERCEPTOR int mq_timedsend(mqd_t q, const char *message, size_t size, unsigned priority,
                                  const struct timespec *deadline) {
  pollfd p = {q, POLLOUT, 0};
  if (announce_blocking_call("mq_timedsend", &p, 1, 0x7fffffff, true)) {
    struct timespec past = {0, 0};
    return real_mq_timedsend()(q, message, size, priority, &past);
  }
  return real_mq_timedsend()(q, message, size, priority, deadline);
}
