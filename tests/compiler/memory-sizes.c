// Plain loads and stores call __snag_readN/__snag_writeN for scalars of 1, 2,
// 4, 8 and 16 bytes, and the range hooks for anything else (vectors, odd
// sizes), before the access, with the address as i8*. (Each read here is
// covered by the write that follows it, so its hook is behind a test of
// __snag_every_access: memory-redundant.c.)
// RUN: SNAG_INSTRUMENT=memory

typedef int int4 __attribute__((vector_size(16)));

char c;
short s;
int i;
long l;
__int128 q;
double d;
long double ld;  // x86_fp80: 10 bytes
int4 v;          // vector: a range even though it is 16 bytes

// CHECK-LABEL: define {{.*}}void @copy_scalars()
void copy_scalars(void) {
  // CHECK: call void @__snag_read1(i8* @c, i64 {{-?[0-9]+}})
  // CHECK: load i8, i8* @c
  // CHECK: call void @__snag_write1(i8* @c, i64 {{-?[0-9]+}})
  // CHECK-NEXT: store i8
  c = c + 1;
  // CHECK: call void @__snag_read2(i8* bitcast (i16* @s to i8*), i64 {{-?[0-9]+}})
  // CHECK: load i16, i16* @s
  // CHECK: call void @__snag_write2(i8* bitcast (i16* @s to i8*), i64 {{-?[0-9]+}})
  // CHECK-NEXT: store i16
  s = s + 1;
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @i to i8*), i64 {{-?[0-9]+}})
  // CHECK: call void @__snag_write4(i8* bitcast (i32* @i to i8*), i64 {{-?[0-9]+}})
  i = i + 1;
  // CHECK: call void @__snag_read8(i8* bitcast (i64* @l to i8*), i64 {{-?[0-9]+}})
  // CHECK: call void @__snag_write8(i8* bitcast (i64* @l to i8*), i64 {{-?[0-9]+}})
  l = l + 1;
  // CHECK: call void @__snag_read16(i8* bitcast (i128* @q to i8*), i64 {{-?[0-9]+}})
  // CHECK: call void @__snag_write16(i8* bitcast (i128* @q to i8*), i64 {{-?[0-9]+}})
  q = q + 1;
  // CHECK: call void @__snag_read8(i8* bitcast (double* @d to i8*), i64 {{-?[0-9]+}})
  // CHECK: call void @__snag_write8(i8* bitcast (double* @d to i8*), i64 {{-?[0-9]+}})
  d = d + 1;
  // CHECK: ret void
}

// CHECK-LABEL: define {{.*}}void @copy_ranges()
void copy_ranges(void) {
  // CHECK: call void @__snag_read_range(i8* bitcast (x86_fp80* @ld to i8*), i64 10, i64 {{-?[0-9]+}})
  // CHECK: load x86_fp80, x86_fp80* @ld
  // CHECK: call void @__snag_write_range(i8* bitcast (x86_fp80* @ld to i8*), i64 10, i64 {{-?[0-9]+}})
  // CHECK-NEXT: store x86_fp80
  ld = ld + 1;
  // CHECK: call void @__snag_read_range(i8* bitcast (<4 x i32>* @v to i8*), i64 16, i64 {{-?[0-9]+}})
  // CHECK: call void @__snag_write_range(i8* bitcast (<4 x i32>* @v to i8*), i64 16, i64 {{-?[0-9]+}})
  v = v + 1;
  // CHECK: ret void
}

// Accesses through pointers: the hook gets the pointer itself.
// CHECK-LABEL: define {{.*}}i32 @through_pointer(i32* {{.*}}%p)
int through_pointer(int *p) {
  // CHECK: [[ADDR:%.*]] = bitcast i32* %p to i8*
  // CHECK-NEXT: call void @__snag_read4(i8* [[ADDR]], i64 {{-?[0-9]+}})
  // CHECK: load i32, i32* %p
  return *p;
}

// CHECK-NOT: call void @__snag_atomic
