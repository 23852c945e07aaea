// snag-check-suite
// expect: clean
// why: main reads `matches` after the std::jthread's scope ends, and the jthread destructor has joined the writer by then
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
      matches = n;
    });
  }
  early = matches;
  return matches == 2 && early >= 0 ? 0 : 1;
}
