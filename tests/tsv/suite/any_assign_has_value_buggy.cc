// snag-tsv-suite
// expect: violation
// object: std::any
// why: a std::async task assigns a value to a std::any while main checks has_value() before waiting on the task's future
#include <any>
#include <future>

std::any setting;
bool configured = false;

__attribute__((noinline)) void load_setting() {
  setting = 2.5;  // TSV:first
}

int main() {
  std::future<void> loaded = std::async(std::launch::async, load_setting);
  configured = setting.has_value();  // TSV:second
  loaded.get();
  return 0;
}
