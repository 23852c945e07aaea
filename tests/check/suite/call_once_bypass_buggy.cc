// snag-check-suite
// expect: race
// why: the table is filled through std::call_once, but is_reserved() reads it without going through the same call_once
#include <mutex>
#include <thread>

std::once_flag table_once;
bool reserved[128];
bool amp_reserved = false;  // shown in a debug line

void init_table() {
  for (const char* p = "#?&=/"; *p; ++p) reserved[static_cast<int>(*p)] = true;  // RACE:first
}

bool needs_escape(char c) {
  std::call_once(table_once, init_table);
  return reserved[static_cast<unsigned char>(c) & 127];
}

bool is_reserved(char c) { return reserved[static_cast<unsigned char>(c) & 127]; }  // RACE:second

int main() {
  bool escaped = false;
  std::thread encoder([&] { escaped = needs_escape('?'); });
  amp_reserved = is_reserved('&');
  encoder.join();
  return escaped ? 0 : 1;
}
