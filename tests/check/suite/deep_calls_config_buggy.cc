// snag-check-suite
// expect: race
// why: a reload thread reaches apply_limits() through two calls and writes the limit that handle_request() -> admit() reads unlocked
#include <thread>

struct Limits {
  int max_connections = 10;
  int max_body = 4096;
};

Limits limits;

void apply_limits(int connections) {
  limits.max_connections = connections;  // RACE:first
}

void parse_and_apply(const char* text) {
  int value = 0;
  for (const char* p = text; *p >= '0' && *p <= '9'; ++p) value = value * 10 + (*p - '0');
  apply_limits(value);
}

void reload_config() { parse_and_apply("64"); }

bool admit(int open) { return open < limits.max_connections; }  // RACE:second

int handle_request(int open) { return admit(open) ? 200 : 503; }

int main() {
  std::thread reloader(reload_config);
  int status = handle_request(5);
  reloader.join();
  return status == 200 ? 0 : 1;
}
