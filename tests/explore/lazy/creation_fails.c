// Lazy threads: a kernel thread that cannot be created. After its first
// thread, the program forbids clone and clone3 (seccomp, EAGAIN), so its
// second pthread_create fails. Created eagerly, the program sees EAGAIN and
// goes on. Deferred, pthread_create has already returned 0 when the
// creation fails: that schedule stops as incomplete, with a note, and the
// schedules after it create threads at once, so the program sees EAGAIN.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int done;

static void *work(void *arg) {
  pthread_mutex_lock(&m);
  done++;
  pthread_mutex_unlock(&m);
  return arg;
}

static void forbid_threads(void) {
  struct sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAGAIN),
  };
  struct sock_fprog program = {sizeof code / sizeof code[0], code};
  assert(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
  assert(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0);
}

int main(void) {
  pthread_t first, second;
  assert(pthread_create(&first, NULL, work, NULL) == 0);
  pthread_join(first, NULL);
  forbid_threads();
  int rc = pthread_create(&second, NULL, work, NULL);
  if (rc == 0)
    pthread_join(second, NULL);
  else
    assert(rc == EAGAIN);
  return 0;
}
