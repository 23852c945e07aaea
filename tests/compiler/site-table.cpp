// The site table of docs/site-table.md: an M line for the module, F lines
// for files, N lines for functions (demangled and linkage names), S lines
// for sites (id, kind, line, column, file index, name index), in a private
// constant array in section snag_sites that a priority-0 constructor passes
// to __snag_register_sites.
// RUN: expect=table
// RUN: expect=ir check=IR
// Without debug information, sites are at the function's line (0 here) and
// column 0, in the module's source file.
// RUN: expect=table check=NODEBUG -g0

namespace demo {
int shared;
void callee();

int work(int x) {
  shared = x;
  callee();
  return shared;
}
} // namespace demo

// CHECK: M	1	[[SOURCE]]
// CHECK-NEXT: F	0	[[SOURCE]]
// CHECK-NEXT: N	0	demo::work(int)	_ZN4demo4workEi
// Function entry (kind 5) at the function's line, column 0.
// CHECK-NEXT: S	{{[0-9a-f]+}}	5	16	0	0	0
// The store (kind 1) and the load (kind 0).
// CHECK-NEXT: S	{{[0-9a-f]+}}	1	17	10	0	0
// CHECK-NEXT: S	{{[0-9a-f]+}}	0	19	10	0	0
// The call (kind 6).
// CHECK-NEXT: S	{{[0-9a-f]+}}	6	18	3	0	0
// CHECK-NOT: {{.}}

// IR: @__snag_sites = private constant [[[LEN:[0-9]+]] x i8] c"M\091\09{{.*}}\0A", section "snag_sites", align 1
// IR: @llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 0, void ()* @snag.module_ctor, i8* null }]
// IR: define internal void @snag.module_ctor()
// IR-NEXT: call void @__snag_register_sites(i8* getelementptr inbounds ([[[LEN]] x i8], [[[LEN]] x i8]* @__snag_sites, i32 0, i32 0), i64 [[LEN]])
// IR-NEXT: ret void

// NODEBUG: M	1	[[SOURCE]]
// NODEBUG-NEXT: F	0	[[SOURCE]]
// NODEBUG-NEXT: N	0	demo::work(int)	_ZN4demo4workEi
// NODEBUG-NEXT: S	{{[0-9a-f]+}}	5	0	0	0	0
// NODEBUG-NEXT: S	{{[0-9a-f]+}}	1	0	0	0	0
// NODEBUG-NEXT: S	{{[0-9a-f]+}}	0	0	0	0	0
// NODEBUG-NEXT: S	{{[0-9a-f]+}}	6	0	0	0	0
