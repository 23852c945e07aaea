#include "report/finding.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <type_traits>

#include "common/finding_text.h"

namespace snag::report {

using nlohmann::json;

// ---------------------------------------------------------------------------
// Small accessors shared by the renderers.

namespace {

class StringSink final : public text::Sink {
 public:
  void write(const char *data, size_t size) override { text.append(data, size); }
  std::string text;
};

}  // namespace

text::Frame text_frame(const Frame &f) {
  text::Frame out;
  out.function = text::Str(f.function.data(), f.function.size());
  out.file = text::Str(f.file.data(), f.file.size());
  out.line = f.line > 0 ? uint64_t(f.line) : 0;
  out.column = f.column > 0 ? uint64_t(f.column) : 0;
  out.site = text::Str(f.site.data(), f.site.size());
  out.module = text::Str(f.module.data(), f.module.size());
  out.module_offset = f.offset;
  return out;
}

// Both as common/finding_text lays them out in text reports.
std::string Frame::location() const {
  StringSink out;
  text::write_location(out, text_frame(*this));
  return out.text;
}

std::string Frame::display() const {
  StringSink out;
  text::write_frame(out, text_frame(*this));
  return out.text;
}

std::string ThreadInfo::display_name() const {
  return name.empty() ? "T" + std::to_string(id) : name;
}

std::string Finding::display_title() const {
  if (!title.empty()) return title;
  std::string out = kind;
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

namespace {

// Code inlined from the toolchain's headers (std::mutex::lock, vector's
// push_back): the program's own call further down is where to look.
bool in_system_header(const Frame &f) {
  return text::in_toolchain_header(text::Str(f.file.data(), f.file.size()));
}

}  // namespace

const Frame *side_primary_frame(const Side &side) {
  if (side.stack.empty()) return nullptr;
  for (const Frame &f : side.stack)
    if (f.has_location() && !in_system_header(f)) return &f;
  return &side.stack.front();
}

const Frame *Finding::primary_frame() const {
  return sides.empty() ? nullptr : side_primary_frame(sides.front());
}

const ThreadInfo *Finding::thread_info(int64_t id) const {
  for (const ThreadInfo &t : threads)
    if (t.id == id) return &t;
  return nullptr;
}

// ---------------------------------------------------------------------------
// Model -> JSON.

namespace {

json frame_json(const Frame &f) {
  json out = json::object();
  if (!f.site.empty()) out["site"] = f.site;
  if (!f.function.empty()) out["function"] = f.function;
  if (!f.file.empty()) out["file"] = f.file;
  if (f.line > 0) out["line"] = f.line;
  if (f.column > 0) out["column"] = f.column;
  if (!f.module.empty()) {
    out["module"] = f.module;
    std::ostringstream offset;
    offset << "0x" << std::hex << f.offset;
    out["offset"] = offset.str();
  }
  return out;
}

json stack_json(const Stack &stack) {
  json out = json::array();
  for (const Frame &f : stack) out.push_back(frame_json(f));
  return out;
}

json side_json(const Side &s) {
  json out = json::object();
  if (!s.role.empty()) out["role"] = s.role;
  out["description"] = s.description;
  if (s.thread) out["thread"] = *s.thread;
  if (s.access) {
    json access = {{"address", s.access->address}, {"size", s.access->size}};
    if (!s.access->kind.empty()) access["kind"] = s.access->kind;
    out["access"] = std::move(access);
  }
  out["stack"] = stack_json(s.stack);
  if (!s.locks.empty()) {
    json locks = json::array();
    for (const Lock &l : s.locks) {
      json lock = {{"address", l.address}};
      if (!l.name.empty()) lock["name"] = l.name;
      if (!l.stack.empty()) lock["stack"] = stack_json(l.stack);
      locks.push_back(std::move(lock));
    }
    out["locks"] = std::move(locks);
  }
  return out;
}

}  // namespace

json to_json(const Finding &f) {
  json out = json::object();
  out["snag"] = f.format_version;
  out["engine"] = f.engine;
  out["kind"] = f.kind;
  if (!f.title.empty()) out["title"] = f.title;
  out["message"] = f.message;
  out["severity"] = f.severity;
  out["rank"] = f.rank;
  if (f.seed) out["seed"] = *f.seed;
  if (f.pid) out["pid"] = *f.pid;
  if (f.details.is_object()) out["details"] = f.details;
  json sides = json::array();
  for (const Side &s : f.sides) sides.push_back(side_json(s));
  out["sides"] = std::move(sides);
  if (!f.threads.empty()) {
    json threads = json::array();
    for (const ThreadInfo &t : f.threads) {
      json thread = {{"id", t.id}};
      if (!t.name.empty()) thread["name"] = t.name;
      if (t.parent) thread["parent"] = *t.parent;
      if (!t.stack.empty()) thread["stack"] = stack_json(t.stack);
      threads.push_back(std::move(thread));
    }
    out["threads"] = std::move(threads);
  }
  if (f.heap) {
    json heap = {{"address", f.heap->address}, {"size", f.heap->size}};
    if (f.heap->thread) heap["thread"] = *f.heap->thread;
    heap["stack"] = stack_json(f.heap->stack);
    out["heap"] = std::move(heap);
  }
  if (f.global) {
    out["global"] = {
        {"name", f.global->name}, {"address", f.global->address}, {"size", f.global->size}};
  }
  if (f.count > 1) out["count"] = f.count;
  return out;
}

// ---------------------------------------------------------------------------
// JSON -> model.
//
// Input comes from programs that may have been killed mid-write, from other
// tools, or from hand-edited files, so every access is checked. A problem
// with a required field rejects the finding; a problem with an optional field
// only drops that field (and is reported), because losing a whole finding over
// a cosmetic field would be worse than showing it without that field.

namespace {

struct FieldError {
  std::string path;
  std::string problem;  // "is missing", "is not a string", ...
};

[[noreturn]] void fail(const std::string &path, const std::string &problem) {
  throw FieldError{path, problem};
}

std::string join_path(const std::string &parent, const std::string &key) {
  return parent.empty() ? key : parent + '.' + key;
}

std::string index_path(const std::string &parent, size_t index) {
  return parent + '[' + std::to_string(index) + ']';
}

// JSON null counts as absent: some writers emit `"seed": null` for "unknown".
const json *member(const json &object, const char *key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string as_string(const json &v, const std::string &path) {
  if (!v.is_string()) fail(path, "is not a string");
  return v.get<std::string>();
}

int64_t as_int(const json &v, const std::string &path) {
  if (v.is_number_unsigned()) {
    auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) fail(path, "is too large");
    return static_cast<int64_t>(u);
  }
  if (!v.is_number_integer()) fail(path, "is not an integer");
  return v.get<int64_t>();
}

uint64_t as_uint(const json &v, const std::string &path) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) fail(path, "is negative");
  fail(path, "is not a non-negative integer");
}

// "0x1f2e": code offsets are written in hex, as people read them.
uint64_t as_hex_number(const json &v, const std::string &path) {
  const std::string text = as_string(v, path);
  if (text.size() < 3 || text.size() > 18 || text.compare(0, 2, "0x") != 0 ||
      text.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
    fail(path, "is not a hex number (\"0x...\")");
  return std::stoull(text.substr(2), nullptr, 16);
}

double as_number(const json &v, const std::string &path) {
  if (!v.is_number()) fail(path, "is not a number");
  return v.get<double>();
}

const json &as_array(const json &v, const std::string &path) {
  if (!v.is_array()) fail(path, "is not an array");
  return v;
}

const json &as_object(const json &v, const std::string &path) {
  if (!v.is_object()) fail(path, "is not an object");
  return v;
}

class Decoder {
 public:
  explicit Decoder(std::vector<std::string> &notes) : notes_(notes) {}

  // Adapts a member function to the (value, path) shape of the converters.
  template <class T>
  auto member_reader(T (Decoder::*read)(const json &, const std::string &)) {
    return [this, read](const json &v, const std::string &path) { return (this->*read)(v, path); };
  }
  auto stack_reader() { return member_reader(&Decoder::stack); }


  // Reads a required field with `convert`; throws FieldError when unusable.
  template <class Convert>
  auto required(const json &object, const char *key, const std::string &parent, Convert convert) {
    std::string path = join_path(parent, key);
    const json *v = member(object, key);
    if (!v) fail(path, "is missing");
    return convert(*v, path);
  }

  // Reads an optional field; absent or unusable gives nullopt (the latter noted).
  template <class Convert>
  auto optional(const json &object, const char *key, const std::string &parent, Convert convert)
      -> std::optional<std::decay_t<decltype(convert(object, parent))>> {
    std::string path = join_path(parent, key);
    const json *v = member(object, key);
    if (!v) return std::nullopt;
    try {
      return convert(*v, path);
    } catch (const FieldError &e) {
      notes_.push_back("ignoring field '" + e.path + "' (" + e.problem + ")");
      return std::nullopt;
    }
  }

  Frame frame(const json &v, const std::string &path) {
    as_object(v, path);
    Frame f;
    f.site = optional(v, "site", path, as_string).value_or("");
    f.function = optional(v, "function", path, as_string).value_or("");
    f.file = optional(v, "file", path, as_string).value_or("");
    f.line = optional(v, "line", path, as_int).value_or(0);
    f.column = optional(v, "column", path, as_int).value_or(0);
    f.module = optional(v, "module", path, as_string).value_or("");
    f.offset = optional(v, "offset", path, as_hex_number).value_or(0);
    return f;
  }

  Stack stack(const json &v, const std::string &path) {
    Stack out;
    const json &frames = as_array(v, path);
    for (size_t i = 0; i < frames.size(); ++i) out.push_back(frame(frames[i], index_path(path, i)));
    return out;
  }

  Access access(const json &v, const std::string &path) {
    as_object(v, path);
    Access a;
    a.address = required(v, "address", path, as_string);
    a.size = optional(v, "size", path, as_uint).value_or(0);
    a.kind = optional(v, "kind", path, as_string).value_or("");
    return a;
  }

  Lock lock(const json &v, const std::string &path) {
    as_object(v, path);
    Lock l;
    l.address = optional(v, "address", path, as_string).value_or("");
    l.name = optional(v, "name", path, as_string).value_or("");
    l.stack = optional(v, "stack", path, stack_reader()).value_or(Stack{});
    return l;
  }

  std::vector<Lock> locks(const json &v, const std::string &path) {
    std::vector<Lock> out;
    const json &items = as_array(v, path);
    for (size_t i = 0; i < items.size(); ++i) out.push_back(lock(items[i], index_path(path, i)));
    return out;
  }

  Side side(const json &v, const std::string &path) {
    as_object(v, path);
    Side s;
    s.role = optional(v, "role", path, as_string).value_or("");
    s.description = required(v, "description", path, as_string);
    s.thread = optional(v, "thread", path, as_int);
    s.access = optional(v, "access", path, member_reader(&Decoder::access));
    s.stack = required(v, "stack", path, stack_reader());
    s.locks = optional(v, "locks", path, member_reader(&Decoder::locks)).value_or(std::vector<Lock>{});
    return s;
  }

  std::vector<Side> sides(const json &v, const std::string &path) {
    std::vector<Side> out;
    const json &items = as_array(v, path);
    for (size_t i = 0; i < items.size(); ++i) out.push_back(side(items[i], index_path(path, i)));
    return out;
  }

  ThreadInfo thread(const json &v, const std::string &path) {
    as_object(v, path);
    ThreadInfo t;
    t.id = required(v, "id", path, as_int);
    t.name = optional(v, "name", path, as_string).value_or("");
    t.parent = optional(v, "parent", path, as_int);
    t.stack = optional(v, "stack", path, stack_reader()).value_or(Stack{});
    return t;
  }

  // A malformed entry of the (optional) thread list drops only that entry.
  std::vector<ThreadInfo> threads(const json &v, const std::string &path) {
    std::vector<ThreadInfo> out;
    const json &items = as_array(v, path);
    for (size_t i = 0; i < items.size(); ++i) {
      std::string item_path = index_path(path, i);
      try {
        out.push_back(thread(items[i], item_path));
      } catch (const FieldError &e) {
        notes_.push_back("ignoring '" + item_path + "' (field '" + e.path + "' " + e.problem + ")");
      }
    }
    return out;
  }

  HeapBlock heap(const json &v, const std::string &path) {
    as_object(v, path);
    HeapBlock h;
    h.address = required(v, "address", path, as_string);
    h.size = optional(v, "size", path, as_uint).value_or(0);
    h.thread = optional(v, "thread", path, as_int);
    h.stack = optional(v, "stack", path, stack_reader()).value_or(Stack{});
    return h;
  }

  GlobalVar global(const json &v, const std::string &path) {
    as_object(v, path);
    GlobalVar g;
    g.name = required(v, "name", path, as_string);
    g.address = optional(v, "address", path, as_string).value_or("");
    g.size = optional(v, "size", path, as_uint).value_or(0);
    return g;
  }

  Finding finding(const json &v) {
    if (!v.is_object()) fail("", "not a JSON object");
    Finding f;
    f.format_version = required(v, "snag", "", as_int);
    if (f.format_version != kFindingsFormatVersion) {
      fail("snag", "is " + std::to_string(f.format_version) + ", but this snag reads version " +
                       std::to_string(kFindingsFormatVersion));
    }
    f.engine = required(v, "engine", "", as_string);
    f.kind = required(v, "kind", "", as_string);
    f.title = optional(v, "title", "", as_string).value_or("");
    f.message = required(v, "message", "", as_string);
    f.severity = optional(v, "severity", "", as_string).value_or("error");
    f.rank = optional(v, "rank", "", as_number).value_or(0.5);
    f.seed = optional(v, "seed", "", as_uint);
    f.pid = optional(v, "pid", "", as_int);
    f.details = optional(v, "details", "", [](const json &d, const std::string &p) {
                  return as_object(d, p);
                }).value_or(json());
    f.sides = required(v, "sides", "", member_reader(&Decoder::sides));
    f.threads = optional(v, "threads", "", member_reader(&Decoder::threads))
                    .value_or(std::vector<ThreadInfo>{});
    f.heap = optional(v, "heap", "", member_reader(&Decoder::heap));
    f.global = optional(v, "global", "", member_reader(&Decoder::global));
    f.count = std::max<uint64_t>(1, optional(v, "count", "", as_uint).value_or(1));
    return f;
  }

 private:
  std::vector<std::string> &notes_;
};

}  // namespace

std::optional<Finding> finding_from_json(const json &object, std::string &error,
                                         std::vector<std::string> &notes) {
  Decoder decoder(notes);
  try {
    return decoder.finding(object);
  } catch (const FieldError &e) {
    if (e.path.empty()) error = e.problem;
    else if (e.problem == "is missing") error = "missing required field '" + e.path + "'";
    else error = "field '" + e.path + "' " + e.problem;
    return std::nullopt;
  }
}

std::vector<Finding> read_findings(std::istream &in, std::vector<std::string> &warnings) {
  std::vector<Finding> out;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    // getline() hitting end of file means the line had no newline: the writer
    // was probably killed in the middle of it.
    bool unterminated = in.eof();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;

    std::string where = "line " + std::to_string(number) + ": ";
    json value = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) {
      warnings.push_back(where + "not valid JSON" +
                         (unterminated ? " (cut off; the program was probably killed while writing it)"
                                       : "") +
                         "; skipped");
      continue;
    }
    std::string error;
    std::vector<std::string> notes;
    std::optional<Finding> finding = finding_from_json(value, error, notes);
    if (!finding) {
      warnings.push_back(where + error + "; skipped");
      continue;
    }
    for (const std::string &note : notes) warnings.push_back(where + note);
    out.push_back(std::move(*finding));
  }
  return out;
}

}  // namespace snag::report
