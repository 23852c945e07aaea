// The cover strategy's corpus, in the fork server: the decisions of the
// schedules that reached coverage points (coverage.h) no schedule before
// them had. A cover schedule takes one of them as its base, follows it up
// to a choice drawn at random, runs another thread there, and goes on with
// the base's remaining decisions or with random ones: what got somewhere
// new is built on, one changed decision at a time (greybox fuzzing of the
// schedule rather than of the input).
#pragma once

#include "engines/explore/plan.h"
#include "engines/explore/results.h"
#include "engines/explore/strategy.h"

namespace snag::explore {

// Keeps the decisions of schedule `r`, which reached new coverage points.
void corpus_add(const ScheduleResults &r);
// Fills a cover plan's base. Without one (an empty corpus, and one plan in
// five: fresh random schedules keep finding new ground) the plan makes
// random choices throughout.
void corpus_plan(Plan &p, Random &random);
// How many schedules the corpus holds.
uint32_t corpus_size();

}  // namespace snag::explore
