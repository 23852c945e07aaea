// Every API site has an A line right after its S line: the access (r or w),
// the object's type as the user writes it (default template arguments,
// inline namespaces and libstdc++'s smart-pointer bases gone) and the
// operation. Copies read their source; element accessors of std::array
// bracket the load or store through the returned reference on the element.
// RUN: expect=table -O0 -std=c++20
// RUN: SNAG_INSTRUMENT=api expect=ir check=IR -O0 -std=c++20
#include <array>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

struct Widget {
  int x;
};

std::vector<std::vector<int>> nested;
std::map<int, std::string> names;
std::unordered_map<std::string, int> counts;
std::shared_ptr<Widget> widget;
std::array<int, 8> slots;
std::priority_queue<int> queue;

// CHECK-DAG: A	{{[0-9a-f]+}}	w	std::vector<std::vector<int>>	push_back
// CHECK-DAG: A	{{[0-9a-f]+}}	w	std::map<int, std::string>	operator[]
// CHECK-DAG: A	{{[0-9a-f]+}}	r	std::unordered_map<std::string, int>	find
// CHECK-DAG: A	{{[0-9a-f]+}}	r	std::shared_ptr<Widget>	shared_ptr (copy source)
// CHECK-DAG: A	{{[0-9a-f]+}}	w	std::shared_ptr<Widget>	reset
// CHECK-DAG: A	{{[0-9a-f]+}}	r	std::shared_ptr<Widget>	operator->
// CHECK-DAG: A	{{[0-9a-f]+}}	r	std::array<int, 8>	operator[]
// CHECK-DAG: A	{{[0-9a-f]+}}	w	std::array<int, 8>	operator[] (element write)
// CHECK-DAG: A	{{[0-9a-f]+}}	r	std::array<int, 8>	at (element read)
// CHECK-DAG: A	{{[0-9a-f]+}}	w	std::priority_queue<int>	push
int use() {
  nested.push_back({1});
  names[1] = "one";
  bool known = counts.find("a") != counts.end();
  std::shared_ptr<Widget> copy = widget;
  widget.reset();
  slots[2] = copy->x;
  queue.push(3);
  return known + slots.at(3);
}

// The element write: the store through operator[]'s result is bracketed
// on that result, the element.
// IR-LABEL: define {{.*}} @_Z3usev()
// IR: [[ELEMENT:%[a-z0-9.]+]] = call {{.*}} @_ZNSt5arrayIiLm8EEixEm(
// IR: call void @__snag_api_end(
// IR: [[BYTES:%[0-9]+]] = bitcast i32* [[ELEMENT]] to i8*
// IR-NEXT: call void @__snag_api_begin(i8* [[BYTES]], i32 1,
// IR-NEXT: store i32 {{.*}}, i32* [[ELEMENT]]
// IR-NEXT: [[BYTES2:%[0-9]+]] = bitcast i32* [[ELEMENT]] to i8*
// IR-NEXT: call void @__snag_api_end(i8* [[BYTES2]],
