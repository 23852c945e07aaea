// For the race fast path's unit tests: the calling thread as the race
// engine publishes it (engines/race/fast_path.h), alone (the fast path on)
// as thread `me` in epoch `now`, holding locks `all` (`write` in write
// mode). Leaving turns the fast path off and forgets the remembered blocks.
#pragma once

#include "engines/race/fast_path.h"

namespace snag::race::test_support {

struct FastPathOn {
  FastPathOn(Tid me, Clock now, LocksetId all = kEmptyLockset, LocksetId write = kEmptyLockset) {
    t_fast_path = {exclusive_word(Kind::kVirgin, me, now, false, 0), all, write};
  }
  ~FastPathOn() { t_fast_path = {}; }
};

}  // namespace snag::race::test_support
