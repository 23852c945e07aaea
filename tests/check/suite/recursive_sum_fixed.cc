// snag-check-suite
// expect: clean
// why: Tree::sum locks a std::recursive_mutex, which the recursive calls on the same thread may lock again
#include <mutex>
#include <thread>
#include <vector>

struct Node {
  int value;
  std::vector<Node*> children;
};

class Tree {
 public:
  int sum(Node* n) {
    std::lock_guard<std::recursive_mutex> lock(m_);
    int s = n->value;
    for (Node* c : n->children) s += sum(c);
    return s;
  }

 private:
  std::recursive_mutex m_;
};

int main() {
  Node leaf1{2, {}}, leaf2{3, {}};
  Node root{1, {&leaf1, &leaf2}};
  Tree tree;
  int total = 0;
  std::thread t([&] { total = tree.sum(&root); });
  t.join();
  return total == 6 ? 0 : 1;
}
