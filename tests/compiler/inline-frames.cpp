// Inlined code in the site table (docs/site-table.md, "Inline frames"): a
// site of inlined code belongs to the inlined function, and its parent (the
// 8th field) is an inline site (kind 8) for the call it was inlined at,
// whose parent is the next call of the chain, up to an inline site in the
// containing function without a parent. Equal chains share inline sites.
// RUN: expect=table -O1
// RUN: expect=table -O2
// Without inlining there are no inline sites and no parents.
// RUN: expect=table check=O0 -O0
// RUN: expect=table check=NOINLINE -O0
void sink(int);
int counter;

static inline void note(int x) {
  counter = x;
  sink(x);
}

void twice(int x) {
  note(x);
  auto more = [](int y) {
    note(y * 2);
  };
  more(x);
}

// CHECK: M	1	[[SOURCE]]
// CHECK-NEXT: F	0	[[SOURCE]]
// CHECK-DAG: N	[[TWICE:[0-9]+]]	twice(int)	_Z5twicei
// CHECK-DAG: N	[[NOTE:[0-9]+]]	note(int)	_ZL4notei
// CHECK-DAG: N	[[LAMBDA:[0-9]+]]	twice(int)::$_0::operator()(int) const	_ZZ5twiceiENK3$_0clEi
// Function entry: twice() is the only function left.
// CHECK: S	{{[0-9a-f]+}}	5	19	0	0	[[TWICE]]{{$}}
// note(x), inlined into twice(): one inline site, in twice().
// CHECK: S	[[AT20:[0-9a-f]+]]	8	20	3	0	[[TWICE]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	1	15	11	0	[[NOTE]]	[[AT20]]{{$}}
// note(y * 2), inlined into the lambda, inlined into twice(): two.
// CHECK: S	[[AT24:[0-9a-f]+]]	8	24	3	0	[[TWICE]]{{$}}
// CHECK: S	[[AT22:[0-9a-f]+]]	8	22	5	0	[[LAMBDA]]	[[AT24]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	1	15	11	0	[[NOTE]]	[[AT22]]{{$}}
// The calls to sink() have the same chains, so the same parents.
// CHECK: S	{{[0-9a-f]+}}	6	16	3	0	[[NOTE]]	[[AT20]]{{$}}
// CHECK: S	{{[0-9a-f]+}}	6	16	3	0	[[NOTE]]	[[AT22]]{{$}}
// CHECK-NOT: {{.}}

// O0-DAG: N	[[TWICE:[0-9]+]]	twice(int)	_Z5twicei
// O0-DAG: N	[[NOTE:[0-9]+]]	note(int)	_ZL4notei
// O0: S	{{[0-9a-f]+}}	6	20	3	0	[[TWICE]]{{$}}
// O0: S	{{[0-9a-f]+}}	1	15	11	0	[[NOTE]]{{$}}
// NOINLINE-NOT: {{^S	[0-9a-f]+	8	}}
// NOINLINE-NOT: {{^S(	[^	]*){7}$}}
