// snag-check-suite
// expect: clean
// why: the limit written by the reload thread three calls down is a std::atomic, so the unlocked read in admit() does not race
#include <atomic>
#include <thread>

struct Limits {
  std::atomic<int> max_connections{10};
  int max_body = 4096;
};

Limits limits;

void apply_limits(int connections) {
  limits.max_connections = connections;
}

void parse_and_apply(const char* text) {
  int value = 0;
  for (const char* p = text; *p >= '0' && *p <= '9'; ++p) value = value * 10 + (*p - '0');
  apply_limits(value);
}

void reload_config() { parse_and_apply("64"); }

bool admit(int open) { return open < limits.max_connections; }

int handle_request(int open) { return admit(open) ? 200 : 503; }

int main() {
  std::thread reloader(reload_config);
  int status = handle_request(5);
  reloader.join();
  return status == 200 ? 0 : 1;
}
