// snag-check-suite
// expect: clean
// why: main reads the global the std::async task wrote only after future::get(), which synchronizes with the task's completion
#include <future>
#include <string>

std::string last_error;

int parse_config(const std::string& text) {
  if (text.empty()) return -1;
  last_error = "ok";
  return static_cast<int>(text.size());
}

int main() {
  auto parsed = std::async(std::launch::async, parse_config, std::string("threads=4"));
  int n = parsed.get();
  bool failed = !last_error.empty() && last_error != "ok";
  return n == 9 && !failed ? 0 : 1;
}
