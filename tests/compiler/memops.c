// memcpy/memmove/memset, as intrinsics or as calls to the libc functions,
// get __snag_read_range(source, n, site) and __snag_write_range(dest, n,
// site) before them; the original call stays. A local that does not escape
// or a constant source gets no hook.
// RUN: SNAG_INSTRUMENT=memops check=CHECK,INTRINSIC
// RUN: SNAG_INSTRUMENT=memops check=CHECK,LIBC -fno-builtin
#include <string.h>

char dst[64];
char src[64];
const char greeting[16] = "hello";

// CHECK-LABEL: define {{.*}}void @copy(i64 {{.*}}%n)
void copy(size_t n) {
  // CHECK: call void @__snag_read_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @src, i64 0, i64 0), i64 %n, i64 [[SITE:-?[0-9]+]])
  // CHECK-NEXT: call void @__snag_write_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @dst, i64 0, i64 0), i64 %n, i64 [[SITE]])
  // INTRINSIC-NEXT: call void @llvm.memcpy.p0i8.p0i8.i64(i8* {{.*}}@dst{{.*}}, i8* {{.*}}@src{{.*}}, i64 %n
  // LIBC-NEXT: call i8* @memcpy(i8* {{.*}}@dst{{.*}}, i8* {{.*}}@src{{.*}}, i64 {{.*}}%n)
  memcpy(dst, src, n);
}

// CHECK-LABEL: define {{.*}}void @move(i64 {{.*}}%n)
void move(size_t n) {
  // CHECK: call void @__snag_read_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @dst, i64 0, i64 1), i64 %n, i64 [[SITE:-?[0-9]+]])
  // CHECK-NEXT: call void @__snag_write_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @dst, i64 0, i64 0), i64 %n, i64 [[SITE]])
  // INTRINSIC-NEXT: call void @llvm.memmove.p0i8.p0i8.i64(
  // LIBC-NEXT: call i8* @memmove(
  memmove(dst, dst + 1, n);
}

// CHECK-LABEL: define {{.*}}void @set(i64 {{.*}}%n)
void set(size_t n) {
  // CHECK-NOT: __snag_read_range
  // CHECK: call void @__snag_write_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @dst, i64 0, i64 0), i64 %n, i64 {{-?[0-9]+}})
  // INTRINSIC-NEXT: call void @llvm.memset.p0i8.i64(
  // LIBC-NEXT: call i8* @memset(
  memset(dst, 0, n);
}

// From a constant: only the destination is reported.
// CHECK-LABEL: define {{.*}}void @from_constant(
void from_constant(size_t n) {
  // CHECK-NOT: __snag_read_range
  // CHECK: call void @__snag_write_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @dst, i64 0, i64 0), i64 %n
  // CHECK-NOT: __snag_read_range
  // CHECK: ret void
  memcpy(dst, greeting, n);
}

// Into a local that does not escape: only the source is reported. (With
// -fno-builtin, memcpy is an unknown function that may keep the pointer, so
// the local escapes.)
// CHECK-LABEL: define {{.*}}i32 @into_private_local(
int into_private_local(int i) {
  char local[64];
  // CHECK: call void @__snag_read_range(i8* getelementptr inbounds ([64 x i8], [64 x i8]* @src, i64 0, i64 0), i64 64
  // INTRINSIC-NOT: __snag_write_range
  // LIBC-NEXT: call void @__snag_write_range(
  // CHECK: ret i32
  memcpy(local, src, sizeof local);
  return local[i & 63];
}
