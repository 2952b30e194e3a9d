// The sequential kernels of the BOTS-style cilksort, shared by every system's version
// (sort_omp.cpp, sort_loom.cpp): only the task structure around them differs.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sort_kernels {

using Elm = std::int32_t;
inline constexpr long kInsertion = 20;  // BOTS INSERTIONSIZE: quicksort hands short runs to this

inline void insertion_sort(Elm* low, Elm* high) {
  for (Elm* q = low + 1; q <= high; ++q) {
    Elm a = *q;
    Elm* p = q - 1;
    for (; p >= low && *p > a; --p) p[1] = *p;
    p[1] = a;
  }
}

inline Elm median3(Elm a, Elm b, Elm c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// Hoare partition around a median of three; returns the last element of the low side.
inline Elm* partition(Elm* low, Elm* high) {
  const Elm pivot = median3(*low, *high, low[(high - low) / 2]);
  Elm* lo = low - 1;
  Elm* hi = high + 1;
  for (;;) {
    do ++lo; while (*lo < pivot);
    do --hi; while (*hi > pivot);
    if (lo >= hi) return hi;
    std::swap(*lo, *hi);
  }
}

inline void seqquick(Elm* low, Elm* high) {
  while (high - low >= kInsertion) {
    Elm* p = partition(low, high);
    seqquick(low, p);
    low = p + 1;
  }
  insertion_sort(low, high);
}

inline void seqmerge(const Elm* low1, const Elm* high1, const Elm* low2, const Elm* high2, Elm* dest) {
  while (low1 <= high1 && low2 <= high2) *dest++ = (*low2 < *low1) ? *low2++ : *low1++;
  while (low1 <= high1) *dest++ = *low1++;
  while (low2 <= high2) *dest++ = *low2++;
}

// First position in [low, high] whose element is >= val (high + 1 if none).
inline const Elm* binsplit(Elm val, const Elm* low, const Elm* high) {
  return std::lower_bound(low, high + 1, val);
}

}  // namespace sort_kernels
