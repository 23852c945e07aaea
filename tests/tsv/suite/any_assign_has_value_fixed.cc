// snag-tsv-suite
// expect: clean
// why: main checks has_value() on the std::any only after future::get() of the task that assigns it
#include <any>
#include <future>

std::any setting;
bool configured = false;

__attribute__((noinline)) void load_setting() {
  setting = 2.5;
}

int main() {
  std::future<void> loaded = std::async(std::launch::async, load_setting);
  loaded.get();
  configured = setting.has_value();
  return 0;
}
