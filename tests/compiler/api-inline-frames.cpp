// API sites are made before inlining (ApiCallMarking.h). When their hooks
// are inlined later, each inlining chain gets a copy of the site (same kind,
// position, function) with the chain's inline site as parent, and the hooks
// in the inlined code use the copy. The original site stays for the hooks
// that were not inlined. (docs/site-table.md, "Inline frames".)
// RUN: SNAG_INSTRUMENT=api expect=table
// RUN: SNAG_INSTRUMENT=api check=IR
#include <vector>

std::vector<int> v;

void add(int x) {
  v.push_back(x);
}

static void add_twice(int x) {
  add(x);
  add(x + 1);
}

void fill() {
  add_twice(1);
}

// CHECK-DAG: N	[[FILL:[0-9]+]]	fill()	_Z4fillv
// CHECK-DAG: N	[[TWICE:[0-9]+]]	add_twice(int)	_ZL9add_twicei
// CHECK-DAG: N	[[ADD:[0-9]+]]	add(int)	_Z3addi
// add_twice() is inlined into fill() once: one inline site in fill().
// CHECK: S	[[AT22:[0-9a-f]+]]	8	22	3	0	[[FILL]]{{$}}
// add() twice into add_twice(), each with a copy of push_back's site.
// CHECK-DAG: S	[[AT17:[0-9a-f]+]]	8	17	3	0	[[TWICE]]	[[AT22]]{{$}}
// CHECK-DAG: S	[[AT18:[0-9a-f]+]]	8	18	3	0	[[TWICE]]	[[AT22]]{{$}}
// CHECK-DAG: S	{{[0-9a-f]+}}	7	13	5	0	[[ADD]]	[[AT17]]{{$}}
// CHECK-DAG: S	{{[0-9a-f]+}}	7	13	5	0	[[ADD]]	[[AT18]]{{$}}
// The out-of-line add() keeps the original site.
// CHECK-DAG: S	{{[0-9a-f]+}}	7	13	5	0	[[ADD]]{{$}}

// IR-LABEL: define {{.*}}void @_Z3addi(
// IR: call void @__snag_api_begin({{.*}}, i64 [[ORIGINAL:-?[0-9]+]])
// IR: call void @__snag_api_end({{.*}}, i64 [[ORIGINAL]])
// The two copies in fill(): begin and end agree, and the ids differ from
// each other and from the original.
// IR-LABEL: define {{.*}}void @_Z4fillv(
// IR-NOT: i64 [[ORIGINAL]])
// IR: call void @__snag_api_begin({{.*}}, i64 [[FIRST:-?[0-9]+]])
// IR-NOT: i64 [[ORIGINAL]])
// IR: call void @__snag_api_end({{.*}}, i64 [[FIRST]])
// IR-NOT: i64 [[ORIGINAL]])
// IR-NOT: i64 [[FIRST]])
// IR: call void @__snag_api_begin({{.*}}, i64 [[SECOND:-?[0-9]+]])
// IR-NOT: i64 [[ORIGINAL]])
// IR-NOT: i64 [[FIRST]])
// IR: call void @__snag_api_end({{.*}}, i64 [[SECOND]])
// IR-NOT: i64 [[ORIGINAL]])
// IR: {{^}}}
