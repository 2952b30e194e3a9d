// What the nqueens programs share: the placement test and the known answers.
#pragma once

#include <cstdlib>

namespace nqueens_ref {

constexpr int kMaxN = 16;

// Whether queens at rows 0..n-1 (queen in row i sits in column a[i]) leave
// each other alone: no shared column, no shared diagonal.
inline bool ok(int n, const char* a) {
  for (int i = 0; i < n; ++i) {
    const int p = a[i];
    for (int j = i + 1; j < n; ++j) {
      const int q = a[j];
      if (q == p || q == p - (j - i) || q == p + (j - i)) return false;
    }
  }
  return true;
}

// Number of solutions for n = 0..16 (OEIS A000170).
inline long solutions(int n) {
  static const long known[kMaxN + 1] = {1,   1,    0,     0,     2,      10,      4,
                                        40,  92,   352,   724,   2680,   14200,   73712,
                                        365596, 2279184, 14772512};
  return known[n];
}

}  // namespace nqueens_ref
