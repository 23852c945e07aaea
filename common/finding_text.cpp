#include "common/finding_text.h"

namespace snag::text {

namespace {

constexpr const char *kSeparator = "==================\n";
constexpr const char *kReset = "\033[0m";
// ThreadSanitizer's colors: the warning red, accesses blue, the location
// green, mutexes magenta, threads cyan.
constexpr const char *kWarning = "\033[1m\033[31m";
constexpr const char *kAccess = "\033[1m\033[34m";
constexpr const char *kLocation = "\033[1m\033[32m";
constexpr const char *kMutex = "\033[1m\033[35m";
constexpr const char *kThread = "\033[1m\033[36m";

size_t length(const char *s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}

bool same(Str a, Str b) {
  if (a.size != b.size) return false;
  for (size_t i = 0; i < a.size; ++i)
    if (a.data[i] != b.data[i]) return false;
  return true;
}

bool same(const Frame &a, const Frame &b) {
  return same(a.function, b.function) && same(a.file, b.file) && a.line == b.line &&
         a.column == b.column && same(a.site, b.site) && a.site_number == b.site_number &&
         same(a.module, b.module) && a.module_offset == b.module_offset;
}

bool same(const Stack &a, const Stack &b) {
  if (a.count != b.count) return false;
  for (uint32_t i = 0; i < a.count; ++i)
    if (!same(a.frames[i], b.frames[i])) return false;
  return true;
}

// Small helpers over the sink; every piece of text goes through them.
class Writer {
 public:
  Writer(Sink &out, const Style &style) : out_(out), style_(style) {}
  Writer &put(Str s) {
    if (s.size) out_.write(s.data, s.size);
    return *this;
  }
  Writer &put(const char *s) { return put(Str(s, length(s))); }
  Writer &put(char c) {
    out_.write(&c, 1);
    return *this;
  }
  Writer &u64(uint64_t v) {
    char digits[20];
    int n = 0;
    do digits[sizeof digits - 1 - n++] = char('0' + v % 10);
    while ((v /= 10) != 0);
    out_.write(digits + sizeof digits - n, size_t(n));
    return *this;
  }
  Writer &i64(int64_t v) {
    if (v < 0) return put('-').u64(uint64_t(0) - uint64_t(v));
    return u64(uint64_t(v));
  }
  Writer &hex16(uint64_t v) {
    char digits[16];
    for (int i = 15; i >= 0; --i, v >>= 4) digits[i] = "0123456789abcdef"[v & 15];
    out_.write(digits, 16);
    return *this;
  }
  Writer &hex(uint64_t v) {  // "0x" and the digits, without leading zeros
    char digits[16];
    int n = 0;
    do digits[sizeof digits - 1 - n++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) != 0);
    put("0x");
    out_.write(digits + sizeof digits - n, size_t(n));
    return *this;
  }
  // Colored spans: a start code, then the text, then end().
  Writer &begin(const char *code) { return style_.color ? put(code) : *this; }
  Writer &end() { return style_.color ? put(kReset) : *this; }
  Sink &sink() { return out_; }

 private:
  Sink &out_;
  const Style &style_;
};

void write_thread_label(Writer &w, const ThreadRef &t) {
  if (t.id == 0) {
    w.put("main thread");
    return;
  }
  w.put("thread ");
  if (t.name.empty()) w.put('T').i64(t.id);
  else w.put(t.name);
}

void write_thread_name(Writer &w, const ThreadRef &t) {
  if (t.name.empty()) w.put('T').i64(t.id);
  else w.put(t.name);
}

void write_stack(Writer &w, const Stack &stack) {
  if (stack.count == 0) {
    w.put("    <no stack>\n");
    return;
  }
  for (uint32_t i = 0; i < stack.count; ++i) {
    w.put("    #").u64(i).put(' ');
    write_frame(w.sink(), stack.frames[i]);
    w.put('\n');
  }
}

void write_title(Writer &w, const Finding &f) {
  if (!f.title.empty()) {
    w.put(f.title);
    return;
  }
  for (size_t i = 0; i < f.kind.size; ++i) w.put(f.kind.data[i] == '-' ? ' ' : f.kind.data[i]);
}

// Most engines' message repeats the first side's description ("Write of
// size 4 ... races with ..."); it is shown only when it adds something, such
// as the lock cycle of a deadlock or a finding without sides.
bool message_adds_information(const Finding &f) {
  if (f.message.empty()) return false;
  if (f.side_count == 0) return true;
  Str first = f.sides[0].description;
  if (first.empty() || first.size > f.message.size) return true;
  return !same(Str(f.message.data, first.size), first);
}

// Display names for the locks of one finding. Unnamed locks are numbered
// M1, M2, ... by distinct address in order of appearance, as
// ThreadSanitizer does, so side lines and "Mutex ... acquired here" blocks
// refer to each other.
class LockNames {
 public:
  explicit LockNames(const Finding &f) {
    for (uint32_t s = 0; s < f.side_count; ++s)
      for (uint32_t l = 0; l < f.sides[s].lock_count; ++l) number_of(f.sides[s].locks[l]);
  }
  // 0 for a named lock (or one past the table, shown by address).
  uint32_t number_of(const Lock &lock) {
    if (!lock.name.empty()) return 0;
    for (uint32_t i = 0; i < count_; ++i)
      if (same(addresses_[i], lock.address)) return i + 1;
    if (count_ == kCapacity) return 0;
    addresses_[count_++] = lock.address;
    return count_;
  }
  void write(Writer &w, const Lock &lock) {
    uint32_t n = number_of(lock);
    if (n) w.put('M').u64(n);
    else w.put(lock.name.empty() ? lock.address : lock.name);
  }
  bool same_name(const Lock &a, const Lock &b) {
    uint32_t na = number_of(a), nb = number_of(b);
    if (na || nb) return na == nb;
    return same(a.name.empty() ? a.address : a.name, b.name.empty() ? b.address : b.name);
  }

 private:
  static constexpr uint32_t kCapacity = 64;
  Str addresses_[kCapacity];
  uint32_t count_ = 0;
};

void write_header(Writer &w, const Finding &f) {
  w.put(kSeparator);
  w.begin(kWarning).put("WARNING: snag: ");
  write_title(w, f);
  if (f.has_pid) w.put(" (pid=").i64(f.pid).put(')');
  w.end();
  if (f.count > 1) w.put(" (reported ").u64(f.count).put(" times)");
  w.put('\n');
  if (message_adds_information(f)) w.put("  ").put(f.message).put("\n\n");
}

void write_sides(Writer &w, const Finding &f, LockNames &names) {
  for (uint32_t s = 0; s < f.side_count; ++s) {
    const Side &side = f.sides[s];
    w.put("  ").begin(kAccess).put(side.description);
    if (side.lock_count) {
      w.put(" (mutexes: ");
      for (uint32_t l = 0; l < side.lock_count; ++l) {
        if (l) w.put(", ");
        names.write(w, side.locks[l]);
      }
      w.put(')');
    }
    w.put(':').end().put('\n');
    write_stack(w, side.stack);
    w.put('\n');
  }
}

void write_location_block(Writer &w, const Finding &f) {
  if (f.has_heap) {
    w.put("  ").begin(kLocation).put("Location is heap block of size ").u64(f.heap_size);
    w.put(" at ").put(f.heap_address).put(" allocated");
    if (f.heap_thread.known) {
      w.put(" by ");
      write_thread_label(w, f.heap_thread);
    }
    w.put(':').end().put('\n');
    write_stack(w, f.heap_stack);
    w.put('\n');
  } else if (!f.global_name.empty()) {
    w.put("  ").begin(kLocation).put("Location is global '").put(f.global_name);
    w.put("' of size ").u64(f.global_size);
    if (!f.global_address.empty()) w.put(" at ").put(f.global_address);
    w.end().put("\n\n");
  }
}

// Where each lock was acquired, once per (lock, stack).
void write_lock_stacks(Writer &w, const Finding &f, LockNames &names) {
  for (uint32_t s = 0; s < f.side_count; ++s) {
    for (uint32_t l = 0; l < f.sides[s].lock_count; ++l) {
      const Lock &lock = f.sides[s].locks[l];
      if (lock.stack.count == 0) continue;
      bool shown = false;
      for (uint32_t ps = 0; ps <= s && !shown; ++ps) {
        uint32_t end = ps == s ? l : f.sides[ps].lock_count;
        for (uint32_t pl = 0; pl < end && !shown; ++pl) {
          const Lock &earlier = f.sides[ps].locks[pl];
          shown = names.same_name(earlier, lock) && same(earlier.stack, lock.stack);
        }
      }
      if (shown) continue;
      w.put("  ").begin(kMutex).put("Mutex ");
      names.write(w, lock);
      if (!lock.address.empty() && lock.name.empty()) w.put(" (").put(lock.address).put(')');
      w.put(" acquired here:").end().put('\n');
      write_stack(w, lock.stack);
      w.put('\n');
    }
  }
}

void write_threads(Writer &w, const Finding &f) {
  for (uint32_t i = 0; i < f.thread_count; ++i) {
    const Thread &t = f.threads[i];
    // The main thread was not created by anyone; nothing to show.
    if (!t.parent.known && t.stack.count == 0) continue;
    w.put("  ").begin(kThread).put("Thread ");
    write_thread_name(w, t.self);
    w.put(" created");
    if (t.parent.known) {
      w.put(" by ");
      write_thread_label(w, t.parent);
    }
    w.put(" at:").end().put('\n');
    write_stack(w, t.stack);
    w.put('\n');
  }
}

void write_footer(Writer &w, const Finding &f) {
  for (uint32_t i = 0; i < f.detail_count; ++i)
    w.put("  ").put(f.details[i].key).put(": ").put(f.details[i].value).put('\n');
  if (f.has_seed) w.put("  seed: ").u64(f.seed).put('\n');
  w.put("SUMMARY: snag: ");
  write_title(w, f);
  if (const Frame *top = f.primary) {
    if (!top->file.empty()) {
      w.put(' ');
      write_location(w.sink(), *top);
      if (!top->function.empty()) w.put(" in ").put(top->function);
    } else if (!top->function.empty()) {
      w.put(" in ").put(top->function);
    } else {
      w.put(' ');
      write_frame(w.sink(), *top);
    }
  }
  w.put('\n').put(kSeparator);
}

}  // namespace

Str::Str(const char *s) : data(s ? s : ""), size(s ? length(s) : 0) {}

void FixedSink::write(const char *data, size_t size) {
  if (capacity_ == 0) return;
  for (size_t i = 0; i < size && used_ + 1 < capacity_; ++i) buffer_[used_++] = data[i];
  buffer_[used_] = '\0';
}

void write_access_description(Sink &out, bool previous, bool write, uint64_t size, Str address,
                              const ThreadRef &thread) {
  Style plain;
  Writer w(out, plain);
  w.put(previous ? (write ? "Previous write" : "Previous read") : (write ? "Write" : "Read"));
  w.put(" of size ").u64(size).put(" at ").put(address).put(" by ");
  write_thread_label(w, thread);
}

bool in_toolchain_header(Str file) {
  static const char *const kPrefixes[] = {"/usr/include/", "/usr/lib/", "/usr/bin/../lib/",
                                         "/usr/local/include/"};
  for (const char *prefix : kPrefixes) {
    size_t n = length(prefix);
    if (file.size >= n && same(Str(file.data, n), Str(prefix, n))) return true;
  }
  return false;
}

const Frame *primary_frame(const Stack &stack) {
  if (stack.count == 0) return nullptr;
  for (uint32_t i = 0; i < stack.count; ++i)
    if (!stack.frames[i].file.empty() && !in_toolchain_header(stack.frames[i].file))
      return &stack.frames[i];
  return &stack.frames[0];
}

void write_location(Sink &out, const Frame &frame) {
  if (frame.file.empty()) return;
  Style plain;
  Writer w(out, plain);
  w.put(frame.file);
  if (frame.line > 0) {
    w.put(':').u64(frame.line);
    if (frame.column > 0) w.put(':').u64(frame.column);
  }
}

void write_frame(Sink &out, const Frame &frame) {
  Style plain;
  Writer w(out, plain);
  if (frame.function.empty() && frame.file.empty() && frame.module.empty()) {
    if (!frame.site.empty()) w.put("<unknown site ").put(frame.site).put('>');
    else if (frame.site_number) w.put("<unknown site ").hex16(frame.site_number).put('>');
    else w.put("<unknown frame>");
    return;
  }
  w.put(frame.function);
  if (!frame.function.empty() && (!frame.file.empty() || !frame.module.empty())) w.put(' ');
  if (!frame.file.empty()) write_location(out, frame);
  else if (!frame.module.empty()) w.put('(').put(frame.module).put('+').hex(frame.module_offset).put(')');
}

void write_finding_text(Sink &out, const Finding &finding, const Style &style) {
  Writer w(out, style);
  LockNames names(finding);
  write_header(w, finding);
  write_sides(w, finding, names);
  write_location_block(w, finding);
  write_lock_stacks(w, finding, names);
  write_threads(w, finding);
  write_footer(w, finding);
}

}  // namespace snag::text
