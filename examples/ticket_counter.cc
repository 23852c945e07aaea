// Two clerks hand out tickets from one counter. Each reads the counter and
// writes it back plus one as two separate atomic steps, so when both read
// before either writes, one ticket number is handed out twice.
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> next_ticket{0};

void hand_out_ticket() {
  int ticket = next_ticket.load();  // BUG: should be next_ticket.fetch_add(1)
  next_ticket.store(ticket + 1);
}

int main() {
  std::thread clerk1(hand_out_ticket);
  std::thread clerk2(hand_out_ticket);
  clerk1.join();
  clerk2.join();
  assert(next_ticket.load() == 2 && "a ticket was handed out twice");
}
