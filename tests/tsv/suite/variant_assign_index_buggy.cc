// snag-tsv-suite
// expect: violation
// object: std::variant<int, std::string>
// why: one thread assigns a std::string to a std::variant holding an int while another reads its index(), with no lock
#include <latch>
#include <string>
#include <thread>
#include <variant>

std::variant<int, std::string> field = 0;
std::latch start(2);
std::size_t field_kind = 0;

__attribute__((noinline)) void parse() {
  start.arrive_and_wait();
  field = std::string("ready");  // TSV:first
}

__attribute__((noinline)) void inspect() {
  start.arrive_and_wait();
  field_kind = field.index();  // TSV:second
}

int main() {
  std::thread p(parse), i(inspect);
  p.join();
  i.join();
  return 0;
}
