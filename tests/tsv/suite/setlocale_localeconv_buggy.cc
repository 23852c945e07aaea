// snag-tsv-suite
// expect: violation
// object: libc locale
// why: one thread changes the global locale with setlocale() while another reads it with localeconv(), without waiting on the latch meant to order them
#include <clocale>
#include <latch>
#include <thread>

std::latch locale_set(1);
char decimal_point = 0;

__attribute__((noinline)) void init_locale() {
  std::setlocale(LC_NUMERIC, "C");  // TSV:first
  locale_set.count_down();
}

__attribute__((noinline)) void format_number() {
  const std::lconv* conventions = std::localeconv();  // TSV:second
  decimal_point = conventions->decimal_point[0];
}

int main() {
  std::thread i(init_locale), f(format_number);
  i.join();
  f.join();
  return 0;
}
