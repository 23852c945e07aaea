#include "help_options.h"

#include <fmt/format.h>

#include "core/option_table.h"

namespace snag::cli {

namespace {

std::string allowed_values(const OptionSpec &spec) {
  switch (spec.type) {
    case OptionType::kCount:
      if (spec.max == kNoLimit) return spec.min == 0 ? "number" : fmt::format("number ≥ {}", spec.min);
      return fmt::format("{}..{}", spec.min, spec.max);
    case OptionType::kChoice:
      return spec.choices;
    default:
      return option_type_name(spec.type);
  }
}

}  // namespace

std::string options_help(bool markdown) {
  std::string out;
  if (markdown) {
    out += "| key | engine | values | default | meaning |\n| --- | --- | --- | --- | --- |\n";
    for (const OptionSpec &spec : kOptionSpecs) {
      std::string values = allowed_values(spec);
      // A '|' inside a table cell must be escaped.
      std::string escaped;
      for (char c : values) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", spec.name, spec.engine, escaped,
                         spec.default_text ? fmt::format("`{}`", spec.default_text) : "(unset)", spec.help);
    }
    return out;
  }
  out +=
      "SNAG_OPTIONS keys (key=value pairs separated by ':' or spaces; the snag command sets\n"
      "engine, findings, exitcode and seed itself). A bad value is refused with one line on\n"
      "stderr and the default applies.\n\n";
  for (const OptionSpec &spec : kOptionSpecs) {
    out += fmt::format("  {:<20} {:<8} {} (default: {})\n", spec.name, spec.engine, allowed_values(spec),
                       spec.default_text ? spec.default_text : "unset");
    out += fmt::format("  {:<20} {}\n", "", spec.help);
  }
  return out;
}

}  // namespace snag::cli
