// I/O-bound workload for bench/guard_bench.py: a small request/response
// server. Client threads send requests through pipes; one server thread per
// client answers each after a little shared bookkeeping (a hit counter and
// a table under a mutex). Most time goes to read/write system calls and
// waking threads, as in the servers of paper 003, Table 3.
//
//   pipe_server [CLIENTS] [REQUESTS]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TABLE = 256 };
static long g_table[TABLE];
static long g_hits;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_requests;

struct channel {
  int to_server[2];
  int to_client[2];
};

static void *server(void *arg) {
  struct channel *c = arg;
  char request[64], reply[64];
  for (;;) {
    ssize_t n = read(c->to_server[0], request, sizeof request);
    if (n <= 0) break;
    unsigned key = 0;
    for (ssize_t i = 0; i < n; ++i) key = key * 31 + (unsigned char)request[i];
    pthread_mutex_lock(&g_lock);
    long value = ++g_table[key % TABLE];
    ++g_hits;
    pthread_mutex_unlock(&g_lock);
    int len = snprintf(reply, sizeof reply, "ok %ld", value);
    if (write(c->to_client[1], reply, (size_t)len) != len) break;
  }
  return NULL;
}

static void *client(void *arg) {
  struct channel *c = arg;
  char request[64], reply[64];
  for (int i = 0; i < g_requests; ++i) {
    int len = snprintf(request, sizeof request, "get /item/%d", i % 97);
    if (write(c->to_server[1], request, (size_t)len) != len) break;
    if (read(c->to_client[0], reply, sizeof reply) <= 0) break;
  }
  close(c->to_server[1]);
  return NULL;
}

int main(int argc, char **argv) {
  int clients = argc > 1 ? atoi(argv[1]) : 4;
  g_requests = argc > 2 ? atoi(argv[2]) : 20000;
  struct channel *c = calloc((size_t)clients, sizeof *c);
  pthread_t *threads = calloc((size_t)clients * 2, sizeof *threads);
  for (int i = 0; i < clients; ++i) {
    if (pipe(c[i].to_server) || pipe(c[i].to_client)) return 1;
    pthread_create(&threads[2 * i], NULL, server, &c[i]);
    pthread_create(&threads[2 * i + 1], NULL, client, &c[i]);
  }
  for (int i = 0; i < 2 * clients; ++i) pthread_join(threads[i], NULL);
  if (g_hits != (long)clients * g_requests) {
    fprintf(stderr, "pipe_server: %ld hits, expected %ld\n", g_hits, (long)clients * g_requests);
    return 1;
  }
  printf("pipe_server: %ld requests served\n", g_hits);
  return 0;
}
