// LLVM would turn a load under a branch into an unconditional load and a
// select (SimplifyCFG), a read the program never makes and the race engine
// would report. snag marks functions sanitize_thread first, which LLVM 14
// honours by not speculating loads (llvm::mustSuppressSpeculation).
// RUN: SNAG_INSTRUMENT=memory -O1

int shared;

// CHECK-LABEL: define {{.*}}i32 @read_if(
// CHECK: br i1
// CHECK: call void @__snag_read4(i8* bitcast (i32* @shared to i8*)
// CHECK-NEXT: load i32, i32* @shared
// CHECK-NOT: select
// CHECK: ret i32
int read_if(int wanted) {
  if (wanted)
    return shared;
  return 0;
}

// CHECK: attributes #{{[0-9]+}} = { {{.*}}sanitize_thread
