#include "engines/guard/guard_report.h"

#include "core/findings.h"
#include "core/platform.h"
#include "core/sites.h"
#include "core/text_buffer.h"

namespace snag::guard {

namespace {

// 'W' for sites that write (stores, memset/memcpy targets), 'R' otherwise;
// '?' when the site table does not know the site.
char site_kind(snag_site_t site) {
  SiteInfo info;
  if (!site || !find_site(site, &info)) return '?';
  return info.kind == SNAG_SITE_WRITE ? 'W' : 'R';
}

void add_thread(TextBuffer &b, uint32_t thread) {
  if (thread == 1) b.add("main thread");
  else b.add("thread T").add_u64(thread - 1);
}

void add_site(TextBuffer &b, snag_site_t site) {
  SiteInfo info;
  if (site && find_site(site, &info)) {
    const char *file = info.file.data;
    uint32_t n = info.file.size;
    for (uint32_t i = 0; i < info.file.size; ++i)
      if (info.file.data[i] == '/') file = info.file.data + i + 1, n = info.file.size - i - 1;
    b.add(file, n).add(':').add_u64(info.line).add(':').add_u64(info.column);
  } else if (site) {
    b.add("site ").add_hex(site, 16);
  } else {
    b.add("nil");
  }
}

}  // namespace

void pattern_name(const Violation &v, char *out, uint32_t size) {
  TextBuffer b;
  char current = v.current.write ? 'W' : 'R';
  if (v.colored) {
    b.add("multi-variable");
  } else if (!v.remote.site) {
    // Nothing from another thread came first, where learned runs always had
    // `expected` first: an order violation.
    b.add("order ").add(site_kind(v.expected)).add('-').add(current);
  } else {
    // Another thread's region began (remote) and would have ended at
    // region_end; this access falls in between: atomicity, written as the
    // region's two accesses | the interleaving one.
    b.add(v.remote.write ? 'W' : 'R').add('-').add(site_kind(v.region_end)).add('|').add(current);
  }
  b.add('\0');
  copy_text(out, size, b.data());
}

void report_violation(const Violation &v) {
  char pattern[32];
  pattern_name(v, pattern, sizeof pattern);
  bool order = !v.remote.site && !v.colored;
  Finding *f = new_finding("guard", order ? "order-violation" : "atomicity-violation");
  f->title = order ? "order violation" : "atomicity violation";
  f->severity = v.stalled && v.tolerated ? "warning" : "error";
  f->rank = 0.8;

  TextBuffer m;
  m.add(order ? "Order violation (" : "Atomicity violation (").add(pattern).add(") at ");
  m.add_address(v.address).add(": ");
  m.add(v.current.write ? "write" : "read").add(" at ");
  add_site(m, v.current.site);
  m.add(" by ");
  add_thread(m, v.current.thread);
  if (v.remote.site) {
    m.add(" came right after ");
    add_thread(m, v.remote.thread);
    m.add("'s ").add(v.remote.write ? "write" : "read").add(" at ");
    add_site(m, v.remote.site);
    m.add(", an order no learned run had");
  } else {
    m.add(" came before any other thread's access; learned runs always had ");
    add_site(m, v.expected);
    m.add(" first");
  }
  if (v.stalled) {
    if (v.tolerated) m.add("; tolerated: stalled ").add_u64(v.stalled_ms).add(" ms until the order was a learned one");
    else m.add("; not tolerated: stalled ").add_u64(v.stalled_ms).add(" ms (the cap) and let it run");
  }
  m.add('\0');
  copy_text(f->message, sizeof f->message, m.data());

  FindingSide &current = f->add_side();
  current.role = "current";
  current.thread = v.current.thread - 1;
  current.has_access = true;
  current.access_address = v.address;
  current.access_size = 1;
  current.access_kind = v.current.write ? "write" : "read";
  current.stack = v.current_stack;
  TextBuffer d;
  d.add(v.current.write ? "Write" : "Read").add(" by ");
  add_thread(d, v.current.thread);
  d.add(v.stalled ? (v.tolerated ? ", stalled until the invariant held" : ", stalled to the cap")
                  : ", about to run");
  d.add('\0');
  copy_text(current.description, sizeof current.description, d.data());

  FindingSide &other = f->add_side();
  TextBuffer o;
  if (v.remote.site) {
    other.role = "remote predecessor";
    other.thread = v.remote.thread - 1;
    other.has_access = true;
    other.access_address = v.address;
    other.access_size = 1;
    other.access_kind = v.remote.write ? "write" : "read";
    if (v.remote.stack) depot_get(v.remote.stack, &other.stack);
    if (other.stack.depth == 0 || other.stack.frames[0] != v.remote.site) {
      other.stack.depth = 1;
      other.stack.frames[0] = v.remote.site;
    }
    o.add("Previous ").add(v.remote.write ? "write" : "read").add(" by ");
    add_thread(o, v.remote.thread);
    o.add(", from another thread, an order no learned run had");
  } else {
    other.role = "expected predecessor";
    other.stack.depth = 1;
    other.stack.frames[0] = v.expected;
    o.add("Expected first: every learned run had this access before the current one (it has not run yet)");
  }
  o.add('\0');
  copy_text(other.description, sizeof other.description, o.data());

  f->add_detail("pattern", pattern);
  f->add_detail("mode", v.mode);
  if (v.stalled) {
    f->add_detail("outcome", v.tolerated ? "tolerated" : "not tolerated");
    f->add_detail("stalled_ms", v.stalled_ms);
    if (v.tolerated) {
      TextBuffer r;
      add_site(r, v.resolved_by);
      r.add('\0');
      f->add_detail("resolved by", r.data());
    }
  } else {
    f->add_detail("outcome", "reported (not stalled)");
  }
  report_finding(f);
}

}  // namespace snag::guard
