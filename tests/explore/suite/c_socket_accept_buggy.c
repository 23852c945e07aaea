// explore suite: c_socket_accept, buggy twin.
// main accepts a loopback connection and waits for a byte; the client thread connects,
// sends the byte and only then marks the request as sent, so when it is preempted between
// the send and the mark, main checks the mark too early. main blocks in accept and recv
// while the client has not run yet: those waits must leave the scheduler's control.
// explore-budget: 2000
// explore-min-rate: 5
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in address;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int sent;

static void *client(void *arg) {
  (void)arg;
  int c = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(c, (struct sockaddr *)&address, sizeof address) != 0) return 0;
  (void)!send(c, "a", 1, 0);
  pthread_mutex_lock(&m);
  sent = 1;
  pthread_mutex_unlock(&m);
  close(c);
  return 0;
}

int main(void) {
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int s = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t length = sizeof address;
  if (s < 0 || bind(s, (struct sockaddr *)&address, length) != 0 ||
      getsockname(s, (struct sockaddr *)&address, &length) != 0 || listen(s, 1) != 0)
    return 2;
  pthread_t t;
  pthread_create(&t, 0, client, 0);
  int c = accept(s, 0, 0);
  char byte;
  if (c < 0 || recv(c, &byte, 1, 0) != 1) return 3;
  pthread_mutex_lock(&m);
  assert(sent == 1);  // BUG: assertion-failure
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  close(c);
  close(s);
  return 0;
}
