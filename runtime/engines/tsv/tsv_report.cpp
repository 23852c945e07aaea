#include "engines/tsv/tsv_report.h"

#include "engines/tsv/call_names.h"

#include "core/findings.h"
#include "core/platform.h"
#include "core/text_buffer.h"

namespace snag::tsv {

namespace {

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
