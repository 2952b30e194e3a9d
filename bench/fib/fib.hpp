// What the fib programs share: the reference value and the size of the task tree.
#pragma once

#include <cstdint>

namespace fib_ref {

// fib(n) by iteration, to check the recursive result against.
inline std::int64_t value(int n) {
  std::int64_t a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    std::int64_t t = a + b;
    a = b;
    b = t;
  }
  return a;
}

// Calls of the naive recursion for fib(n): c(n) = 1 + c(n-1) + c(n-2), c(0) = c(1) = 1,
// which solves to 2 fib(n+1) - 1. Every call but the root is one task.
inline std::int64_t tasks(int n) { return 2 * value(n + 1) - 2; }

}  // namespace fib_ref
