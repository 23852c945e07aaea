// Classes listed in the files of SNAG_API_TABLE are marked like the default
// ones: `*` gives every other member a default access, class templates match
// by name, later tables override earlier entries, and constructors, static
// members and calls made inside the class are not marked.
// RUN: SNAG_INSTRUMENT=api SNAG_API_TABLE=%S/inputs/user-table.txt:%S/inputs/user-override.txt
// Without SNAG_API_TABLE the user's classes are not marked.
// RUN: SNAG_INSTRUMENT=api check=DEFAULT
#include <vector>

namespace app {
class Registry {
public:
  Registry();
  void add(int key);
  bool lookup(int key) const;
  static void reset(Registry *registry);

private:
  int keys[16];
  int count = 0;
};

template <typename T> class Cache {
public:
  void put(T value) { last = value; }
  T get() const { return last; }

private:
  T last{};
};
} // namespace app

// Members call each other: those calls are the class's own business.
// CHECK-LABEL: define {{.*}}void @_ZN3app8Registry3addEi(
// CHECK-NOT: __snag_api_begin
// CHECK: ret void
void app::Registry::add(int key) {
  if (!lookup(key))
    keys[count++ % 16] = key;
}

app::Registry::Registry() = default;
bool app::Registry::lookup(int key) const { return keys[key % 16] == key; }
void app::Registry::reset(Registry *registry) { registry->count = 0; }

app::Registry registry;
app::Cache<long> cache;
std::vector<int> numbers;

// CHECK-LABEL: define {{.*}}i64 @_Z3usev()
// DEFAULT-LABEL: define {{.*}}i64 @_Z3usev()
long use() {
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.app::Registry"* @registry to i8*), i32 1, i64 [[ADD:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.app::Registry"* @registry to i8*), i64 [[ADD]])
  registry.add(3);
  // From the `*` entry.
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.app::Registry"* @registry to i8*), i32 0, i64 [[LOOKUP:-?[0-9]+]])
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.app::Registry"* @registry to i8*), i64 [[LOOKUP]])
  bool found = registry.lookup(3);
  // A static member has no object (it is inlined at -O1: no call left).
  // CHECK-NOT: __snag_api_begin
  app::Registry::reset(&registry);
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.app::Cache"* @cache to i8*), i32 1,
  cache.put(5);
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.app::Cache"* @cache to i8*), i32 0,
  long value = cache.get();
  // std::vector::size is a write according to the second table.
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @numbers to i8*), i32 1,
  // DEFAULT-NOT: @registry to i8*
  // DEFAULT-NOT: @cache to i8*
  // DEFAULT: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @numbers to i8*), i32 0,
  return value + found + (long)numbers.size();
}

// Constructors are not marked (the global constructor of `registry`).
// CHECK-LABEL: define internal void @_GLOBAL__sub_I_
// CHECK-NOT: __snag_api_begin
// CHECK: ret void
