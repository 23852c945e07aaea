// snag-tsv-suite
// expect: clean
// why: the std::variant's assignment and index() are both made under the same mutex
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

std::variant<int, std::string> field = 0;
std::mutex field_mutex;
std::latch start(2);
std::size_t field_kind = 0;

__attribute__((noinline)) void parse() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(field_mutex);
  field = std::string("ready");
}

__attribute__((noinline)) void inspect() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(field_mutex);
  field_kind = field.index();
}

int main() {
  std::thread p(parse), i(inspect);
  p.join();
  i.join();
  return 0;
}
