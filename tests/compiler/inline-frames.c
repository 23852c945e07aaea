// Inline frames in C: the inlined function's debug info has no linkage
// name, so its N line uses its name.
// RUN: expect=table
// RUN: expect=ir check=IR
void sink(int);
int counter;

static void bump(int x) {
  counter += x;
  sink(counter);
}

void work(int x) {
  bump(x);
}

// CHECK-DAG: N	[[WORK:[0-9]+]]	work	work
// CHECK-DAG: N	[[BUMP:[0-9]+]]	bump	bump
// CHECK: S	[[AT14:[0-9a-f]+]]	8	14	3	0	[[WORK]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	0	9	11	0	[[BUMP]]	[[AT14]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	1	9	11	0	[[BUMP]]	[[AT14]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	6	10	3	0	[[BUMP]]	[[AT14]]{{$}}

// The hooks get the sites of the inlined code, never an inline site.
// IR-LABEL: define {{.*}}void @work(
// IR: call void @__snag_read4(
// IR: call void @__snag_write4(
// IR: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
// IR: call void @sink(
