// A constructor or destructor's store of the vtable pointer is a write only
// when it changes the pointer: a derived destructor stores the value the
// object already has while another thread may still call through it.
// RUN: SNAG_INSTRUMENT=memory -O1

struct Base {
  virtual ~Base();
  virtual int f();
};
struct Derived : Base {
  ~Derived() override;
  int f() override;
};

// CHECK-LABEL: define {{.*}}@_ZN7DerivedD2Ev(
// CHECK: [[OLD:%[0-9]+]] = load i32 (...)**, i32 (...)***
// CHECK-NEXT: [[CHANGED:%[0-9]+]] = icmp ne i32 (...)** [[OLD]],
// CHECK-NEXT: br i1 [[CHANGED]]
// CHECK: call void @__snag_write8(
// CHECK-NEXT: br label
// CHECK: store i32 (...)** {{.*}}, !tbaa
void note(Base *);
Derived::~Derived() { note(this); }

// A plain store is still one unconditional write.
// CHECK-LABEL: define {{.*}}@_Z3setPii(
// CHECK: call void @__snag_write4(
// CHECK-NEXT: store i32
void set(int *p, int v) { *p = v; }
