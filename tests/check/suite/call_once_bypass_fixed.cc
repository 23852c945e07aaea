// snag-check-suite
// expect: clean
// why: every reader of the table goes through the same std::call_once that fills it, which orders the reads after the fill
#include <mutex>
#include <thread>

std::once_flag table_once;
bool reserved[128];

void init_table() {
  for (const char* p = "#?&=/"; *p; ++p) reserved[static_cast<int>(*p)] = true;
}

bool needs_escape(char c) {
  std::call_once(table_once, init_table);
  return reserved[static_cast<unsigned char>(c) & 127];
}

bool is_reserved(char c) { return needs_escape(c); }

int main() {
  bool escaped = false;
  std::thread encoder([&] { escaped = needs_escape('?'); });
  bool amp = is_reserved('&');
  encoder.join();
  return escaped && amp ? 0 : 1;
}
