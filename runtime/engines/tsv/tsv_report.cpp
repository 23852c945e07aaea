#include "engines/tsv/tsv_report.h"

#include "core/api_calls.h"
#include "core/findings.h"
#include "core/platform.h"
#include "core/sites.h"
#include "core/text_buffer.h"

namespace snag::tsv {

namespace {

void copy_table_string(char *out, size_t capacity, TableString s) {
  size_t n = s.size < capacity - 1 ? s.size : capacity - 1;
  copy_bytes(out, s.data, n);
  out[n] = 0;
}

// "push_back (write) on std::vector<int>" and the like.
void describe(TextBuffer &b, const CallName &name, const Call &call) {
  b.add(name.operation).add(call.write() ? " (write)" : " (read)");
}

void fill_side(Finding &f, const char *role, const Call &call, const CallName &name,
               const StackTrace &stack, const char *note) {
  FindingSide &side = f.add_side();
  side.role = role;
  side.thread = call.thread;
  side.stack = stack;
  TextBuffer b;
  b.add("Call to ").add(name.object).add("::");
  describe(b, name, call);
  b.add(" by ");
  if (call.thread == 0) b.add("main thread");
  else b.add("thread T").add_u64(call.thread);
  b.add(note).add('\0');
  copy_text(side.description, sizeof side.description, b.data());
}

}  // namespace

void split_annotated_name(const char *name, CallName *out) {
  // The function's name ends at the first '(' outside template arguments;
  // it starts after the last blank before that (the return type).
  int depth = 0;
  const char *open = nullptr, *start = name;
  for (const char *p = name; *p && !open; ++p) {
    if (*p == '<') ++depth;
    else if (*p == '>') --depth;
    else if (depth == 0 && *p == ' ') start = p + 1;
    else if (depth == 0 && *p == '(') open = p;
  }
  const char *end = open ? open : name + cstr_len(name);
  if (start >= end) start = name;
  // The last "::" outside template arguments separates class and member.
  const char *split = nullptr;
  depth = 0;
  for (const char *p = start; p + 1 < end; ++p) {
    if (*p == '<') ++depth;
    else if (*p == '>') --depth;
    else if (depth == 0 && p[0] == ':' && p[1] == ':') split = p;
  }
  auto copy_range = [](char *dst, size_t capacity, const char *from, const char *to) {
    size_t n = static_cast<size_t>(to - from);
    if (n > capacity - 1) n = capacity - 1;
    copy_bytes(dst, from, n);
    dst[n] = 0;
  };
  if (split) {
    copy_range(out->object, sizeof out->object, start, split);
    copy_range(out->operation, sizeof out->operation, split + 2, end);
  } else {
    copy_text(out->object, sizeof out->object, "annotated object");
    copy_range(out->operation, sizeof out->operation, start, end);
  }
}

void name_call(const Call &call, CallName *out) {
  copy_text(out->object, sizeof out->object, "object");
  copy_text(out->operation, sizeof out->operation, "call");
  if (call.flags & kApiLibc) {
    auto *libc = reinterpret_cast<const LibcCall *>(call.description);
    copy_text(out->object, sizeof out->object, libc->object);
    copy_text(out->operation, sizeof out->operation, libc->operation);
    return;
  }
  if (call.flags & kApiAnnotated) {
    split_annotated_name(reinterpret_cast<const char *>(call.description), out);
    return;
  }
  SiteInfo info;
  if (find_site(call.site, &info) && info.api_object.size) {
    copy_table_string(out->object, sizeof out->object, info.api_object);
    copy_table_string(out->operation, sizeof out->operation, info.api_operation);
  }
}

void report_violation(uintptr_t object, const Call &current, const StackTrace &current_stack,
                      const Conflict &conflict) {
  CallName mine, theirs;
  name_call(current, &mine);
  name_call(conflict.other, &theirs);

  Finding *f = new_finding("tsv", "thread-safety-violation");
  f->title = "thread-safety violation";
  f->rank = 0.9;  // caught red-handed: never a guess
  TextBuffer m;
  m.add("Thread-safety violation on ").add(theirs.object).add(' ').add_address(object).add(": ");
  describe(m, mine, current);
  m.add(" by ");
  if (current.thread == 0) m.add("main thread");
  else m.add("thread T").add_u64(current.thread);
  m.add(" while ");
  if (conflict.other.thread == 0) m.add("main thread");
  else m.add("thread T").add_u64(conflict.other.thread);
  m.add(" is in ");
  describe(m, theirs, conflict.other);
  m.add('\0');
  copy_text(f->message, sizeof f->message, m.data());

  fill_side(*f, "current", current, mine, current_stack, "");
  fill_side(*f, "concurrent", conflict.other, theirs, conflict.other_stack,
            conflict.other_delayed ? ", held there by a delay snag injected"
                                   : ", still in progress");
  f->add_detail("object", theirs.object);
  TextBuffer address;
  address.add_address(object).add('\0');
  f->add_detail("object address", address.data());
  TextBuffer operations;
  describe(operations, mine, current);
  operations.add(" vs ");
  describe(operations, theirs, conflict.other);
  operations.add('\0');
  f->add_detail("operations", operations.data());
  f->add_detail("caught", conflict.other_delayed ? "during an injected delay" : "overlapping calls");
  report_finding(f);
}

}  // namespace snag::tsv
