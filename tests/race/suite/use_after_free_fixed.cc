// snag-race-suite
// expect: clean
// why: the node is deleted only after the worker is joined; a later thread's allocation of the (likely reused) memory is ordered after the free
#include <thread>

struct Node {
  long header[4];
  long value;
};

Node* node;
long observed;

__attribute__((noinline)) void worker(long v) {
  node->value = v;
}

__attribute__((noinline)) void reuser(long v) {
  Node* n = new Node();  // usually gets the block just freed by main
  n->value = v;
  observed = n->value;
  delete n;
}

int main(int argc, char**) {
  node = new Node();
  std::thread t(worker, argc);
  t.join();
  delete node;
  std::thread u(reuser, argc + 1);
  u.join();
  return observed == argc + 1 ? 0 : 1;
}
