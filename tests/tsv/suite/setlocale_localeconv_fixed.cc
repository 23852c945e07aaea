// snag-tsv-suite
// expect: clean
// why: the thread that calls localeconv() first waits on a latch that the setlocale() thread counts down after its call
#include <clocale>
#include <latch>
#include <thread>

std::latch locale_set(1);
char decimal_point = 0;

__attribute__((noinline)) void init_locale() {
  std::setlocale(LC_NUMERIC, "C");
  locale_set.count_down();
}

__attribute__((noinline)) void format_number() {
  locale_set.wait();
  const std::lconv* conventions = std::localeconv();
  decimal_point = conventions->decimal_point[0];
}

int main() {
  std::thread i(init_locale), f(format_number);
  i.join();
  f.join();
  return 0;
}
