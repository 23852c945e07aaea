// What a kApiBegin event (a TSVD point, core/event.h) says about the call.
// Calls the compiler marked are described by their site's A line in the
// site table; libc's MT-unsafe functions and annotated user members have no
// such line, so the event carries their description itself.
#pragma once

#include <stdint.h>

namespace snag {

enum ApiCallFlags : uint32_t {
  kApiWrite = 1 << 0,      // the call may change the object
  kApiLibc = 1 << 1,       // value: a LibcCall*
  // value: __PRETTY_FUNCTION__ of an annotated C++ member, or the type name
  // a C annotation gives (the operation is then the annotated function,
  // whose site is addr2).
  kApiAnnotated = 1 << 2,
};

// A libc function that uses hidden state (intercept/libc_unsafe.cpp).
struct LibcCall {
  const char *object;     // "libc strtok state"
  const char *operation;  // "strtok"
  uint32_t write;
};

}  // namespace snag
