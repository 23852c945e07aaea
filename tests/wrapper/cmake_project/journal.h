// The shared library (C++): remembers who added what.
#pragma once

#include <cstddef>

namespace journal {

void append(int who);
std::size_t size();

}  // namespace journal
