#include "diagnostics.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iostream>

namespace snag::cli {

std::string one_line(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

std::string shell_quote(const std::string &word) {
  bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || (c != 0 && std::strchr("/._-+,=:@%", c) != nullptr);
  });
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// std::cerr is unbuffered, and each message is written in one call, so lines
// stay whole even when the program's own output shares the terminal.
void print_error(const std::string &message) { std::cerr << "snag: " + one_line(message) + "\n"; }

void print_warning(const std::string &message) {
  std::cerr << "snag: warning: " + one_line(message) + "\n";
}

void print_note(const std::string &message) { std::cerr << "snag: " + one_line(message) + "\n"; }

void print_command_note(const std::string &command, const std::string &message) {
  std::cerr << "snag " + command + ": " + one_line(message) + "\n";
}

}  // namespace snag::cli
