// A replay file is a user's file, possibly edited or crafted: any bytes.
// Every refusal is one line; whatever is accepted keeps its fields in the
// forms the runtime writes.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/diagnostics.h"
#include "cli/replay_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  nlohmann::json document = nlohmann::json::parse(data, data + size, nullptr, false);
  if (document.is_discarded()) return 0;
  try {
    snag::cli::ReplayFile replay = snag::cli::replay_file_from_json(document, "fuzz.json");
    if (replay.points.find(':') != std::string::npos) __builtin_trap();
  } catch (const snag::cli::UsageError &e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
