// snag-race-suite
// expect: clean
// why: the 48-byte node is deleted only after the worker that writes its last field is joined; another thread's allocation of the (likely reused) memory is ordered after the free
#include <thread>

struct Node {
  long header[5];
  long last;  // offset 40: the block's last granule
};

Node* node;
long observed;

__attribute__((noinline)) void worker(long v) {
  node->last = v;
}

__attribute__((noinline)) void reuser(long v) {
  Node* n = new Node();  // usually gets the block just freed by main
  n->last = v;
  observed = n->last;
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
