// snag-check-suite
// expect: race
// why: the std::async task stores its result in a global that main reads before future::get(), the only point that orders the two
#include <future>
#include <string>

std::string last_error;

int parse_config(const std::string& text) {
  if (text.empty()) return -1;
  last_error = "ok";  // RACE:first
  return static_cast<int>(text.size());
}

int main() {
  auto parsed = std::async(std::launch::async, parse_config, std::string("threads=4"));
  bool failed = !last_error.empty() && last_error != "ok";  // RACE:second
  int n = parsed.get();
  return n == 9 && !failed ? 0 : 1;
}
