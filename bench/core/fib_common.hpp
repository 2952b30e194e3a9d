// What the bench/core fib programs share: the reference value and the tree size.
#pragma once

#include <cstdint>

namespace core_fib {

// fib(n) by iteration, to check the recursive results against.
inline std::int64_t value(int n) {
  std::int64_t a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const std::int64_t t = a + b;
    a = b;
    b = t;
  }
  return a;
}

// Calls of the naive recursion, 2 fib(n+1) - 1; every call but the root counts as a
// task (the convention of bench/fib, so ns per task compares across benchmarks).
inline std::int64_t tasks(int n) { return 2 * value(n + 1) - 2; }

// Calls that spawn (one child task each) in the run-one-inline shape of fork_join and
// TBB's run+inline: the internal nodes, fib(n+1) - 1.
inline std::int64_t spawns(int n) { return value(n + 1) - 1; }

}  // namespace core_fib
