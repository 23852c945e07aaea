// compile_commands.json comes from the user's build (CMake, Bear, Meson, or
// written by hand): any bytes. Every refusal is one line; whatever is
// accepted has a file and keeps none of the flags snag check drops.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "cli/compile_commands.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  try {
    for (const snag::cli::CompileCommand &command : snag::cli::parse_compile_commands(text, "fuzz.json")) {
      if (command.file.empty()) __builtin_trap();
      for (const std::string &flag : command.flags)
        if (flag == "-c" || flag == "-o" || flag.rfind("-fsanitize", 0) == 0) __builtin_trap();
    }
  } catch (const snag::cli::CompileDatabaseError &e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  // The shell-word splitter on its own, on the same bytes.
  snag::cli::split_shell_words(text);
  return 0;
}
