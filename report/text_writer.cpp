#include "report/text_writer.h"

#include <string>
#include <utility>

#include "report/summary.h"

namespace snag::report {

namespace {

constexpr const char *kSeparator = "==================";

// ANSI colors, chosen like ThreadSanitizer's: the warning in red, accesses in
// blue, the location in green, mutexes in magenta and threads in cyan. With
// colors off every escape is empty, so the layout code has a single path.
class Style {
 public:
  explicit Style(bool on) : on_(on) {}
  std::string warning(const std::string &s) const { return wrap("\033[1m\033[31m", s); }
  std::string access(const std::string &s) const { return wrap("\033[1m\033[34m", s); }
  std::string location(const std::string &s) const { return wrap("\033[1m\033[32m", s); }
  std::string mutex(const std::string &s) const { return wrap("\033[1m\033[35m", s); }
  std::string thread(const std::string &s) const { return wrap("\033[1m\033[36m", s); }

 private:
  std::string wrap(const char *code, const std::string &s) const {
    return on_ ? code + s + "\033[0m" : s;
  }
  bool on_;
};

void write_stack(std::ostream &out, const Stack &stack) {
  if (stack.empty()) {
    out << "    <no stack>\n";
    return;
  }
  for (size_t i = 0; i < stack.size(); ++i) out << "    #" << i << ' ' << stack[i].display() << '\n';
}

// Display names for the locks of one finding. Writers may leave names out
// (the runtime does); like ThreadSanitizer we then number the distinct
// mutexes M1, M2, ... in order of appearance so the side lines and the
// "Mutex ... acquired here" blocks refer to each other.
class LockNames {
 public:
  explicit LockNames(const Finding &finding) {
    for (const Side &side : finding.sides)
      for (const Lock &lock : side.locks) name_of(lock);
  }

  std::string name_of(const Lock &lock) {
    if (!lock.name.empty()) return lock.name;
    for (const auto &[address, name] : assigned_)
      if (address == lock.address) return name;
    std::string name = "M" + std::to_string(assigned_.size() + 1);
    assigned_.emplace_back(lock.address, name);
    return name;
  }

 private:
  std::vector<std::pair<std::string, std::string>> assigned_;  // address, name
};

std::string thread_name(const Finding &finding, int64_t id) {
  if (id == 0) return "main thread";
  const ThreadInfo *info = finding.thread_info(id);
  return "thread " + (info ? info->display_name() : "T" + std::to_string(id));
}

std::string detail_value(const nlohmann::json &value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The message repeats the first side's description for most engines ("Write
// of size 4 ... by thread T2 races with ..."); print it only when it adds
// something, e.g. the lock cycle of a deadlock or a finding without sides.
bool message_adds_information(const Finding &finding) {
  if (finding.message.empty()) return false;
  if (finding.sides.empty()) return true;
  const std::string &first = finding.sides.front().description;
  return first.empty() || finding.message.rfind(first, 0) != 0;
}

void write_header(std::ostream &out, const Finding &finding, const Style &style) {
  std::string header = "WARNING: snag: " + finding.display_title();
  if (finding.pid) header += " (pid=" + std::to_string(*finding.pid) + ")";
  out << style.warning(header);
  if (finding.count > 1) out << " (reported " << finding.count << " times)";
  out << '\n';
  if (message_adds_information(finding)) out << "  " << finding.message << "\n\n";
}

void write_sides(std::ostream &out, const Finding &finding, LockNames &locks, const Style &style) {
  for (const Side &side : finding.sides) {
    std::string line = side.description;
    if (!side.locks.empty()) {
      line += " (mutexes: ";
      for (size_t i = 0; i < side.locks.size(); ++i) {
        if (i > 0) line += ", ";
        line += locks.name_of(side.locks[i]);
      }
      line += ")";
    }
    out << "  " << style.access(line + ":") << '\n';
    write_stack(out, side.stack);
    out << '\n';
  }
}

void write_location(std::ostream &out, const Finding &finding, const Style &style) {
  if (finding.heap) {
    const HeapBlock &heap = *finding.heap;
    std::string line = "Location is heap block of size " + std::to_string(heap.size) + " at " +
                       heap.address + " allocated";
    if (heap.thread) line += " by " + thread_name(finding, *heap.thread);
    out << "  " << style.location(line + ":") << '\n';
    write_stack(out, heap.stack);
    out << '\n';
  } else if (finding.global) {
    const GlobalVar &global = *finding.global;
    std::string line = "Location is global '" + global.name + "' of size " + std::to_string(global.size);
    if (!global.address.empty()) line += " at " + global.address;
    out << "  " << style.location(line) << "\n\n";
  }
}

void write_lock_stacks(std::ostream &out, const Finding &finding, LockNames &locks,
                       const Style &style) {
  std::vector<std::pair<std::string, Stack>> shown;
  for (const Side &side : finding.sides) {
    for (const Lock &lock : side.locks) {
      if (lock.stack.empty()) continue;
      std::pair<std::string, Stack> entry{locks.name_of(lock), lock.stack};
      bool seen = false;
      for (const auto &s : shown) seen = seen || s == entry;
      if (seen) continue;
      std::string line = "Mutex " + entry.first;
      if (!lock.address.empty() && lock.name.empty()) line += " (" + lock.address + ")";
      out << "  " << style.mutex(line + " acquired here:") << '\n';
      write_stack(out, lock.stack);
      out << '\n';
      shown.push_back(std::move(entry));
    }
  }
}

void write_threads(std::ostream &out, const Finding &finding, const Style &style) {
  for (const ThreadInfo &thread : finding.threads) {
    // The main thread was not created by anyone; nothing to show.
    if (!thread.parent && thread.stack.empty()) continue;
    std::string line = "Thread " + thread.display_name() + " created";
    if (thread.parent) line += " by " + thread_name(finding, *thread.parent);
    out << "  " << style.thread(line + " at:") << '\n';
    write_stack(out, thread.stack);
    out << '\n';
  }
}

void write_footer(std::ostream &out, const Finding &finding) {
  if (finding.details.is_object()) {
    for (const auto &[key, value] : finding.details.items())
      out << "  " << key << ": " << detail_value(value) << '\n';
  }
  if (finding.seed) out << "  seed: " << *finding.seed << '\n';

  out << "SUMMARY: snag: " << finding.display_title();
  if (const Frame *top = finding.primary_frame()) {
    if (top->has_location()) {
      out << ' ' << top->location();
      if (!top->function.empty()) out << " in " << top->function;
    } else if (!top->function.empty()) {
      out << " in " << top->function;
    } else {
      out << ' ' << top->display();
    }
  }
  out << '\n';
}

}  // namespace

void write_text_finding(std::ostream &out, const Finding &finding, const TextOptions &options) {
  Style style(options.color);
  LockNames locks(finding);
  out << kSeparator << '\n';
  write_header(out, finding, style);
  write_sides(out, finding, locks, style);
  write_location(out, finding, style);
  write_lock_stacks(out, finding, locks, style);
  write_threads(out, finding, style);
  write_footer(out, finding);
  out << kSeparator << '\n';
}

void write_text(std::ostream &out, const std::vector<Finding> &findings, const TextOptions &options) {
  for (const Finding &finding : findings) write_text_finding(out, finding, options);
  out << summary_line(findings) << '\n';
}

}  // namespace snag::report
