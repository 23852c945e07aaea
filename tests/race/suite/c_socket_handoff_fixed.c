// snag-race-suite
// expect: clean
// why: the client sets the value before it connects and sends; connect/accept and send/recv on two different sockets order it before the server's read
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>

struct sockaddr_in address;
int value;
int seen;

__attribute__((noinline)) static void* client(void* arg) {
  (void)arg;
  int c = socket(AF_INET, SOCK_STREAM, 0);
  value = 42;
  if (connect(c, (struct sockaddr*)&address, sizeof address) != 0) return NULL;
  (void)!send(c, "a", 1, 0);
  close(c);
  return NULL;
}

int main(void) {
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t length = sizeof address;
  if (s < 0 || bind(s, (struct sockaddr*)&address, length) != 0 ||
      getsockname(s, (struct sockaddr*)&address, &length) != 0 || listen(s, 1) != 0)
    return 1;
  pthread_t t;
  pthread_create(&t, NULL, client, NULL);
  int c = accept(s, NULL, NULL);
  char byte;
  if (c < 0 || recv(c, &byte, 1, 0) != 1) return 1;
  seen = value;
  pthread_join(t, NULL);
  close(c);
  close(s);
  return seen == 42 || seen == 0 ? 0 : 1;
}
