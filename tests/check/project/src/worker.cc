// Half of counter_app: the thread body. Alone it has no main and no class,
// so nothing to check; linked with main.cc it races.
int hits = 0;

void worker() {
  hits += STEP;  // races with main.cc:10
}
