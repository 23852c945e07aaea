// snag-check-suite
// expect: race
// why: main reads `matches` inside the scope of the std::jthread, i.e. before its destructor joins the thread that writes it
#include <string>
#include <thread>

int main() {
  const std::string text = "a needle, another needle";
  int matches = 0;
  int early = 0;
  {
    std::jthread searcher([&] {
      int n = 0;
      for (std::size_t pos = text.find("needle"); pos != std::string::npos; pos = text.find("needle", pos + 1)) ++n;
      matches = n;  // RACE:first
    });
    early = matches;  // RACE:second
  }
  return matches == 2 && early >= 0 ? 0 : 1;
}
