// Calls to members of the standard containers in the default API table are
// bracketed by __snag_api_begin(this, is_write, site) and
// __snag_api_end(this, site). The marking runs before inlining, so it also
// works when the member is inlined (-O1) and when it is not (-O0); calls
// inside the library's own members are not marked.
// RUN: SNAG_INSTRUMENT=api check=CHECK,O1
// RUN: SNAG_INSTRUMENT=api check=CHECK,O0 -O0
// RUN: SNAG_INSTRUMENT=api check=LIB -O0
#include <string>
#include <unordered_map>
#include <vector>

std::vector<int> v;
std::unordered_map<int, int> m;
std::string s;

// CHECK-LABEL: define {{.*}}void @_Z9vector_opv()
void vector_op() {
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @v to i8*), i32 1, i64 [[PUSH:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[PUSH]])
  v.push_back(1);
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @v to i8*), i32 0, i64 [[SIZE:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SIZE]])
  // operator[] of a vector only reads the vector.
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @v to i8*), i32 0, i64 [[INDEX:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[INDEX]])
  v[0] = (int)v.size();
  // CHECK: ret void
}

// CHECK-LABEL: define {{.*}}i32 @_Z6map_opv()
int map_op() {
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i32 0, i64 [[FIND:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i64 [[FIND]])
  auto it = m.find(3);
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i32 0, i64 [[END:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i64 [[END]])
  bool found = it != m.end();
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i32 1, i64 [[INSERT:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i64 [[INSERT]])
  m.insert({1, 2});
  // operator[] of a map may insert: a write.
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i32 1, i64 [[INDEX:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::unordered_map"* @m to i8*), i64 [[INDEX]])
  return found + m[7];
}

// CHECK-LABEL: define {{.*}}i64 @_Z9string_opv()
size_t string_op() {
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::__cxx11::basic_string"* @_Z1sB5cxx11 to i8*), i32 1, i64 [[APPEND:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::__cxx11::basic_string"* @_Z1sB5cxx11 to i8*), i64 [[APPEND]])
  s.append("tail");
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::__cxx11::basic_string"* @_Z1sB5cxx11 to i8*), i32 0, i64 [[LENGTH:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::__cxx11::basic_string"* @_Z1sB5cxx11 to i8*), i64 [[LENGTH]])
  return s.length();
}

// Constructors and destructors are not marked; the member call on the local
// is.
// CHECK-LABEL: define {{.*}}i64 @_Z8lifetimev()
size_t lifetime() {
  // CHECK-NOT: __snag_api_begin
  // CHECK: call void @__snag_api_begin(i8* {{.*}}, i32 1,
  // CHECK-NOT: __snag_api_begin
  // CHECK: ret i64
  std::vector<int> local;
  local.reserve(4);
  return 0;
}

// An invoke (the local string's destructor needs a landing pad) gets the end
// hook on both of its paths.
void may_throw();
// CHECK-LABEL: define {{.*}}void @_Z7invokedv()
void invoked() {
  std::string local = "x";
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @v to i8*), i32 1, i64 [[SITE:-?[0-9]+]])
  // At -O0 push_back stays an invoke:
  // O0-NEXT: invoke void @_ZNSt6vectorIiSaIiEE9push_backEOi(
  // O0-NEXT: to label %[[NORMAL:[^ ,]+]] unwind label %[[UNWIND:[^ ,]+]]
  // O0: [[NORMAL]]:
  // O0-NEXT: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
  // O0: [[UNWIND]]:
  // O0-NEXT: landingpad
  // O0-NEXT: cleanup
  // O0-NEXT: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
  // At -O1 it is inlined, and both ends are still there:
  // O1: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
  // O1: landingpad
  // O1-NEXT: cleanup
  // O1-NEXT: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @v to i8*), i64 [[SITE]])
  v.push_back(2);
  may_throw();
}

// At -O0 the library's members are in the module: push_back calls
// emplace_back, a listed member, but that call is the library's own.
// LIB-LABEL: define linkonce_odr {{.*}}void @_ZNSt6vectorIiSaIiEE9push_backEOi(
// LIB-NOT: __snag_api_begin
// LIB: call {{.*}}emplace_back
// LIB-NOT: __snag_api_begin
// LIB: ret void
