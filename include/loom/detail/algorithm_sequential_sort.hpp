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
/// part too short for radix sorting is block-sorted).
template <class It, class Comp, class V>
void radix_quicksort(It first, It last, Comp& comp, radix_scratch<V>& scratch, int depth) {
    quicksort_loop(
        first, last, comp, std::ptrdiff_t(scratch.size), depth,
        [&](It a, It b, int depth_left) { radix_quicksort(a, b, comp, scratch, depth_left); },
        [&](It a, It b) {
            const std::size_t n = std::size_t(b - a);
            if (n >= radix_min_elements<V>) {
                radix_sort<radix_direction<V, std::remove_cv_t<Comp>>>(a, n, scratch.room.get());
            } else {
                block_quicksort(a, b, comp);
            }
        });
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
