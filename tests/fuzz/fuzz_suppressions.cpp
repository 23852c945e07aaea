// A suppressions file is the user's: any bytes, then any pattern against any text.
#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "core/suppression_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<char> text(data, data + size);
  text.push_back(0);
  static snag::Suppression rules[snag::kMaxSuppressions];
  int count = snag::parse_suppressions(text.data(), size, rules, snag::kMaxSuppressions);
  static const char kText[] = "std::vector<int>::push_back /src/worker.cc";
  for (int i = 0; i < count; ++i) {
    snag::template_match(rules[i].pattern, kText, sizeof kText - 1);
    snag::template_match(rules[i].pattern, "", 0);
  }
  return 0;
}
