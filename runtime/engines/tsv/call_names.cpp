#include "engines/tsv/call_names.h"

#include "core/api_calls.h"
#include "core/platform.h"
#include "core/sites.h"

namespace snag::tsv {

namespace {

void copy_table_string(char *out, size_t capacity, TableString s) {
  size_t n = s.size < capacity - 1 ? s.size : capacity - 1;
  copy_bytes(out, s.data, n);
  out[n] = 0;
}

}  // namespace

bool split_annotated_name(const char *name, CallName *out) {
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
  if (!open) return false;
  const char *end = open;
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
    copy_text(out->object, sizeof out->object, "object");
    copy_range(out->operation, sizeof out->operation, start, end);
  }
  return true;
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
    const char *name = reinterpret_cast<const char *>(call.description);
    if (split_annotated_name(name, out)) return;
    // A C annotation names the type; the annotated function is the operation.
    copy_text(out->object, sizeof out->object, name);
    SiteInfo inner;
    if (find_site(call.inner_site, &inner)) {
      uint32_t n = 0;
      while (n < inner.function.size && inner.function.data[n] != '(') ++n;
      copy_table_string(out->operation, sizeof out->operation, {inner.function.data, n});
    }
    return;
  }
  SiteInfo info;
  if (find_site(call.site, &info) && info.api_object.size) {
    copy_table_string(out->object, sizeof out->object, info.api_object);
    copy_table_string(out->operation, sizeof out->operation, info.api_operation);
  }
}

}  // namespace snag::tsv
