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

// Keeps the decisions of schedule `r`, which reached new coverage points,
// if it was a cover schedule (`plan`). A base is followed choice by choice,
// and only a cover schedule's choices are those of a cover schedule: the
// other strategies have no scheduling points at accesses to shared
// variables (pct, random, the bounds) or have theirs at their plan's
// variables (vb, pctvb), so a base of theirs is out of step with the cover
// schedule from its first access on. (Their new points still count as
// reached, and their schedules in the counts of each point's schedules.)
void corpus_add(const ScheduleResults &r, const Plan &plan);
// Fills a cover plan's base. Without one (an empty corpus, and one plan in
// five: fresh random schedules keep finding new ground) the plan makes
// random choices throughout.
void corpus_plan(Plan &p, Random &random);
// How many schedules the corpus holds.
uint32_t corpus_size();

}  // namespace snag::explore
