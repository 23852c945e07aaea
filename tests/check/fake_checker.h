// The test stand-in for CheckModule (see fake_checker.cpp).
#pragma once

#include "interp/ir/checker.h"

namespace snag::interp {
extern CheckOptions fake_checker_last_options;
extern int fake_checker_calls;
}  // namespace snag::interp
