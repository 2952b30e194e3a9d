// The sort a single lane runs, for loom::sort's leaves and its inline path and for
// loom::stable_sort's: the radix sort of algorithm_radix_sort.hpp where the keys and
// the comparator allow it, else the block quicksort of algorithm_block_sort.hpp
// (stable_sort: std::stable_sort).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>

#include "loom/detail/algorithm_block_sort.hpp"
#include "loom/detail/algorithm_radix_sort.hpp"

namespace loom::detail {

/// Partitions [first, last) until a part fits the scratch, then radix-sorts it (a
/// part too short for radix sorting is block-sorted). Unlucky pivots past `depth`
/// levels leave the rest to std::sort, as in block_quicksort.
template <class It, class Comp, class V>
void radix_quicksort(It first, It last, Comp& comp, radix_scratch<V>& scratch, int depth) {
    while (std::size_t(last - first) > scratch.size) {
        if (depth-- == 0) {
            std::sort(first, last, std::ref(comp));
            return;
        }
        auto [left_end, right] = partition_around_pivot(first, last, comp);
        if (left_end - first < last - right) {
            radix_quicksort(first, left_end, comp, scratch, depth);
            first = right;
        } else {
            radix_quicksort(right, last, comp, scratch, depth);
            last = left_end;
        }
    }
    const std::size_t n = std::size_t(last - first);
    if (n >= radix_min_elements<V>) {
        radix_sort<radix_direction<V, std::remove_cv_t<Comp>>>(first, n, scratch.room.get());
    } else {
        block_quicksort(first, last, comp);
    }
}

/// Sorts [first, last) on the calling thread.
template <class It, class Comp>
void sequential_sort(It first, It last, Comp& comp) {
    if constexpr (radix_sortable<It, Comp>) {
        using V = std::remove_cv_t<std::iter_value_t<It>>;
        const std::size_t n = std::size_t(last - first);
        if (n >= radix_min_elements<V>) {
            radix_scratch<V> scratch(std::min(n, radix_max_elements<V>));
            if (scratch.size != 0) {
                radix_quicksort(first, last, comp, scratch, 2 * std::bit_width(n));
                return;
            }
        }
    }
    block_quicksort(first, last, comp);
}

/// Sorts [first, last) stably on the calling thread. Integer keys equal under the
/// recognised comparators are equal bit for bit, so the unstable radix quicksort
/// keeps their order as far as anyone can tell. Floats are not (-0.0 and +0.0): they
/// are radix-sorted without partitions, whose swaps are not stable, through a
/// scratch as long as the range (std::stable_sort asks for half that).
template <class It, class Comp>
void sequential_stable_sort(It first, It last, Comp& comp) {
    if constexpr (radix_sortable<It, Comp>) {
        using V = std::remove_cv_t<std::iter_value_t<It>>;
        if constexpr (std::is_integral_v<V>) {
            sequential_sort(first, last, comp);
            return;
        } else {
            const std::size_t n = std::size_t(last - first);
            if (n >= radix_min_elements<V> && n < (std::size_t(1) << 32)) {
                radix_scratch<V> scratch(n);
                if (scratch.size != 0) {
                    radix_sort<radix_direction<V, std::remove_cv_t<Comp>>>(first, n, scratch.room.get());
                    return;
                }
            }
        }
    }
    std::stable_sort(first, last, std::ref(comp));
}

}  // namespace loom::detail
