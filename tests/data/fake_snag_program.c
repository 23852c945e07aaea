/* A stand-in for a program built with snag-c++, for testing the `snag`
 * command and the report library without the compiler plugin or the
 * runtime. It carries the two ELF sections snag looks at (docs/site-table.md)
 * and, instead of a runtime, does what its arguments say with the files
 * named in SNAG_OPTIONS:
 *
 *   fake findings FILE    append FILE's bytes to the findings file
 *   fake crash FILE       the same, then die of SIGSEGV
 *   fake hang             sleep until killed
 *   fake exit N           exit with status N
 *   fake print-options    print SNAG_OPTIONS on stdout
 *   fake args ARGS...     print each argument on its own line
 *   fake events           write two event lines to the events file
 *   fake explore FINDINGS DECISIONS NEEDED
 *                         a stand-in for the explore engine (docs/explore.md):
 *     exploring (no replay= in SNAG_OPTIONS): with DECISIONS "none", write a
 *       summary of `schedules` schedules without failure; otherwise a worker
 *       whose shard index I (shard=I/N) is odd waits (as in a long schedule)
 *       until the failure bound file (failure_bound=) says another worker
 *       failed, then writes a summary of 0 schedules, or hangs until killed
 *       without that file; the others fail in schedule I with DECISIONS
 *       (FINDINGS appended to the findings file, the bound lowered to I, a
 *       failure record and a summary to explore_out);
 *       With schedule_from= above the shard index (a launch after a failure
 *       that did not reproduce), write a summary of `schedules` schedules
 *       without failure;
 *     replaying (replay=FILE): fail the same way, with FILE's decisions, when
 *       they contain the token NEEDED; otherwise write a schedule record that
 *       says a strict replay diverged after two decisions.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SITE_TABLE                                                              \
  "M\t1\tfake.c\n"                                                             \
  "F\t0\t/src/fake/race.cc\n"                                                  \
  "F\t1\t/src/fake/lock.cc\n"                                                  \
  "N\t0\tworker(int*)\t_Z6workerPi\n"                                          \
  "N\t1\tmain\tmain\n"                                                         \
  "N\t2\ttake_locks(std::mutex&, std::mutex&)\t_Z10take_locksRSt5mutexS0_\n" \
  "S\t1111111111111111\t1\t12\t7\t0\t0\n"                                      \
  "S\t2222222222222222\t6\t30\t3\t0\t1\n"                                      \
  "S\t3333333333333333\t6\t21\t5\t1\t2\n"                                      \
  "S\t4444444444444444\t6\t40\t9\t1\t1\n"                                      \
  "M\t1\tsecond.c\n"                                                           \
  "F\t0\t/src/fake/second.cc\n"                                                \
  "N\t0\thelper()\t_Z6helperv\n"                                               \
  "S\t5555555555555555\t0\t8\t1\t0\t0\n"

/* Like the pass's arrays: not NUL-terminated, kept even though unused. */
__attribute__((used, section("snag_sites"))) static const char site_table[sizeof(SITE_TABLE) - 1] =
    SITE_TABLE;
__attribute__((used, section("snag_runtime"))) static const char runtime_marker[] =
    "snag-runtime test-fixture";

/* The last value of `key` in SNAG_OPTIONS ("k=v" pairs separated by ':' or
 * spaces), copied into `out`; 0 when absent. */
static int option_value(const char *key, char *out, size_t capacity) {
  const char *options = getenv("SNAG_OPTIONS");
  size_t key_length = strlen(key);
  int found = 0;
  if (!options) return 0;
  for (const char *p = options; *p;) {
    size_t n = strcspn(p, ": ");
    if (n > key_length && strncmp(p, key, key_length) == 0 && p[key_length] == '=') {
      size_t value_length = n - key_length - 1;
      if (value_length >= capacity) value_length = capacity - 1;
      memcpy(out, p + key_length + 1, value_length);
      out[value_length] = '\0';
      found = 1;
    }
    p += n;
    if (*p) ++p;
  }
  return found;
}

/* The failure bound the explore CLI shares among its -j workers: 8 bytes,
 * all ones until a worker writes the index of its failing schedule. */
static void wait_for_failure_bound(const char *path) {
  for (;;) {
    uint64_t bound = ~(uint64_t)0;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, &bound, sizeof bound) != (ssize_t)sizeof bound) exit(4);
    close(fd);
    if (bound != ~(uint64_t)0) return;
    usleep(10000);
  }
}

static void lower_failure_bound(const char *path, uint64_t index) {
  int fd = open(path, O_WRONLY);
  if (fd < 0 || write(fd, &index, sizeof index) != (ssize_t)sizeof index) exit(4);
  close(fd);
}

static void append_file(const char *from, const char *option) {
  char to[4096];
  char buffer[4096];
  ssize_t n;
  int in, out;
  if (!option_value(option, to, sizeof to)) {
    fprintf(stderr, "fake: no %s= in SNAG_OPTIONS\n", option);
    exit(3);
  }
  in = open(from, O_RDONLY);
  out = open(to, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (in < 0 || out < 0) {
    perror("fake");
    exit(3);
  }
  while ((n = read(in, buffer, sizeof buffer)) > 0) {
    if (write(out, buffer, (size_t)n) != n) exit(3);
  }
  close(in);
  close(out);
}

static void append_line(const char *option, const char *line) {
  char path[4096];
  FILE *f;
  if (!option_value(option, path, sizeof path) || !(f = fopen(path, "a"))) exit(3);
  fprintf(f, "%s\n", line);
  fclose(f);
}

/* Whether the white-space separated `tokens` contain `token`. */
static int has_token(const char *tokens, const char *token) {
  size_t n = strlen(token);
  for (const char *p = tokens; (p = strstr(p, token)) != NULL; p += n) {
    int starts = p == tokens || p[-1] == ' ';
    int ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends) return 1;
  }
  return 0;
}

static int count_preemptions(const char *decisions) {
  int n = 0;
  for (const char *p = decisions; *p; ++p) n += *p == 'p';
  return n;
}

static void fail(const char *findings, long schedule, const char *decisions) {
  char seed[64] = "0";
  char line[8192];
  option_value("seed", seed, sizeof seed);
  append_file(findings, "findings");
  snprintf(line, sizeof line,
           "{\"type\":\"failure\",\"schedule\":%ld,\"strategy\":\"pct\",\"seed\":%s,\"kind\":\"deadlock\","
           "\"message\":\"lock-order inversion\",\"steps\":10,\"preemptions\":%d,\"decisions\":\"%s\"}",
           schedule, seed, count_preemptions(decisions), decisions);
  append_line("explore_out", line);
}

static int explore(const char *findings, const char *decisions, const char *needed) {
  char value[4096];
  char line[8192];
  if (option_value("replay", value, sizeof value)) {
    char replayed[4096] = "";
    FILE *f = fopen(value, "r");
    if (!f || !fgets(replayed, sizeof replayed, f)) return 3;
    fclose(f);
    replayed[strcspn(replayed, "\n")] = '\0';
    if (has_token(replayed, needed)) {
      fail(findings, 0, replayed);
      return 0;
    }
    snprintf(line, sizeof line,
             "{\"type\":\"schedule\",\"schedule\":0,\"strategy\":\"replay\",\"kind\":\"none\",\"steps\":2,"
             "\"preemptions\":0,\"diverged\":%s,\"decisions\":\"0 1\"}",
             option_value("replay_lenient", value, sizeof value) ? "false" : "true");
    append_line("explore_out", line);
    return 0;
  }
  long shard = option_value("shard", value, sizeof value) ? atol(value) : 0;
  long from = option_value("schedule_from", value, sizeof value) ? atol(value) : 0;
  if (strcmp(decisions, "none") == 0 || from > shard) {
    long schedules = option_value("schedules", value, sizeof value) ? atol(value) : 0;
    snprintf(line, sizeof line,
             "{\"type\":\"summary\",\"schedules\":%ld,\"seconds\":0.5,\"failures\":0,"
             "\"per_strategy\":{\"pct\":%ld},\"threads\":3,\"forked\":true,\"notes\":[]}",
             schedules, schedules);
    append_line("explore_out", line);
    return 0;
  }
  char bound_path[4096];
  int has_bound = option_value("failure_bound", bound_path, sizeof bound_path);
  if (shard % 2 == 1) {
    if (!has_bound) for (;;) pause();
    wait_for_failure_bound(bound_path);
    append_line("explore_out",
                "{\"type\":\"summary\",\"schedules\":0,\"seconds\":0.01,\"failures\":0,"
                "\"per_strategy\":{},\"threads\":3,\"forked\":true,\"notes\":[]}");
    return 0;
  }
  fail(findings, shard, decisions);
  if (has_bound) lower_failure_bound(bound_path, (uint64_t)shard);
  snprintf(line, sizeof line,
           "{\"type\":\"summary\",\"schedules\":%ld,\"seconds\":0.01,\"failures\":1,"
           "\"per_strategy\":{\"pct\":%ld},\"threads\":3,\"forked\":true,"
           "\"notes\":[\"thread T2 left control in read() at a.c:10:3\"]}",
           shard + 1, shard + 1);
  append_line("explore_out", line);
  return 0;
}

int main(int argc, char **argv) {
  const char *command = argc > 1 ? argv[1] : "";
  if (strcmp(command, "findings") == 0 && argc > 2) {
    append_file(argv[2], "findings");
    return 0;
  }
  if (strcmp(command, "crash") == 0 && argc > 2) {
    append_file(argv[2], "findings");
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 1;
  }
  if (strcmp(command, "hang") == 0) {
    for (;;) pause();
  }
  if (strcmp(command, "exit") == 0 && argc > 2) return atoi(argv[2]);
  if (strcmp(command, "print-options") == 0) {
    const char *options = getenv("SNAG_OPTIONS");
    printf("%s\n", options ? options : "");
    return 0;
  }
  if (strcmp(command, "args") == 0) {
    for (int i = 2; i < argc; ++i) printf("%s\n", argv[i]);
    return 0;
  }
  if (strcmp(command, "events") == 0) {
    char path[4096];
    FILE *f;
    if (!option_value("events", path, sizeof path) || !(f = fopen(path, "a"))) return 3;
    fprintf(f, "T0 thread-start\nT0 write 0x1000 size=4 site=1111111111111111\n");
    fclose(f);
    return 0;
  }
  if (strcmp(command, "explore") == 0 && argc > 4) return explore(argv[2], argv[3], argv[4]);
  fprintf(stderr, "fake: unknown command '%s'\n", command);
  return 3;
}
