// Calls to std:: container members are marked with read/write kinds.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

int main() {
  std::vector<int> v;
  v.push_back(1); // MARK:vector-push
  std::size_t n = v.size(); // MARK:vector-size
  std::unordered_map<int, int> map;
  map[1] = 2; // MARK:map-index
  auto it = map.find(1); // MARK:map-find
  std::string s = "a";
  s.append("b"); // MARK:string-append
  std::printf("%zu %d %s\n", n, it->second, s.c_str());
}
