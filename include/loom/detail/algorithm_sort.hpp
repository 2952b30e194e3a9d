// sort: parallel quicksort (median-of-three pivot, the right part forked, a
// three-way split when the left part comes out small, i.e. many keys equal the
// pivot; the sequential sort of algorithm_sequential_sort.hpp below the cutoff and
// past a depth limit). stable_sort: parallel merge sort that ping-pongs between the
// range and one buffer of moved-out elements (the sequential stable sort at the
// leaves, merge_rec between levels). Both need only move
// construction and move assignment, so move-only elements work.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>
#include <vector>

#include "loom/detail/algorithm_fork.hpp"
#include "loom/detail/algorithm_merge.hpp"
#include "loom/detail/algorithm_sequential_sort.hpp"

namespace loom::detail {

/// Ranges below this are always sorted sequentially: a task costs about as much as
/// sorting a few thousand elements.
inline constexpr std::size_t min_sort_cutoff = 2048;

template <class It, class Comp>
void quicksort_rec(const exec_info& ei, bulk_error& err, It first, It last, Comp& comp, std::size_t cutoff,
                   int depth) {
    const std::size_t n = std::size_t(last - first);
    if (n <= cutoff || depth == 0) {
        sequential_sort(first, last, comp);
        return;
    }
    auto [left_end, right] = partition_around_pivot(first, last, comp);
    fork2(
        ei, err, [&] { quicksort_rec(ei, err, first, left_end, comp, cutoff, depth - 1); },
        [&] { quicksort_rec(ei, err, right, last, comp, cutoff, depth - 1); });
}

/// Ranges up to this long are sorted by one lane. A radix-sorted range is split only
/// when twice the radix scratch: the parallel quicksort partitions its first level on
/// one lane at about a third of a radix sort's cost per element, which two lanes
/// recover only on larger ranges (1e4 uint32 keys: 40 us inline, 44-57 us split, on
/// two workers).
template <class It, class Comp>
inline constexpr std::size_t parallel_sort_min = [] {
    if constexpr (radix_sortable<It, Comp>) {
        return 2 * radix_max_elements<std::remove_cv_t<std::iter_value_t<It>>>;
    } else {
        return min_sort_cutoff;
    }
}();

template <class It, class Comp>
void sort_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        const std::size_t n = std::size_t(last - first);
        if (ei.parallel() && n > parallel_sort_min<It, Comp>) {
            const bulk_plan plan = make_plan(ei, n);
            if (plan.lanes > 1) {
                const std::size_t cutoff = std::max(min_sort_cutoff, plan.chunk);
                const int depth = 2 * std::bit_width(n);  // then the sequential sort takes over
                bulk_error err;
                guarded(ei, err, [&] { quicksort_rec(ei, err, first, last, comp, cutoff, depth); });
                err.rethrow();
                return;
            }
        }
    }
    run_inline(ei, [&] { sequential_sort(first, last, comp); });
}

/// Sorts a[0, n) stably; the result ends in b if `to_b`, else in a. Both hold n
/// live elements; whichever does not receive the result is scratch.
template <class A, class B, class Comp>
void merge_sort_rec(const exec_info& ei, bulk_error& err, A a, B b, std::size_t n, bool to_b, Comp& comp,
                    std::size_t cutoff) {
    if (n <= cutoff) {
        sequential_stable_sort(a, a + std::ptrdiff_t(n), comp);
        if (to_b) std::move(a, a + std::ptrdiff_t(n), b);
        return;
    }
    const std::size_t m = n / 2;
    const auto half = std::ptrdiff_t(m);
    fork2(
        ei, err, [&] { merge_sort_rec(ei, err, a, b, m, !to_b, comp, cutoff); },
        [&] { merge_sort_rec(ei, err, a + half, b + half, n - m, !to_b, comp, cutoff); });
    if (err.failed()) return;
    const auto end = std::ptrdiff_t(n);
    if (to_b) {
        merge_rec<true>(ei, err, a, a + half, a + half, a + end, b, comp, std::max(cutoff, min_merge_cutoff));
    } else {
        merge_rec<true>(ei, err, b, b + half, b + half, b + end, a, comp, std::max(cutoff, min_merge_cutoff));
    }
}

template <class It, class Comp>
void stable_sort_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        const std::size_t n = std::size_t(last - first);
        if (ei.parallel() && n > min_sort_cutoff) {
            const bulk_plan plan = make_plan(ei, n);
            if (plan.lanes > 1) {
                const std::size_t cutoff = std::max(min_sort_cutoff, plan.chunk);
                using value = std::iter_value_t<It>;
                // The elements move to the buffer and the sorted sequence comes back:
                // no default construction, no copies.
                std::vector<value> buf(std::make_move_iterator(first), std::make_move_iterator(last));
                bulk_error err;
                guarded(ei, err, [&] { merge_sort_rec(ei, err, buf.begin(), first, n, true, comp, cutoff); });
                err.rethrow();
                return;
            }
        }
    }
    run_inline(ei, [&] { sequential_stable_sort(first, last, comp); });
}

}  // namespace loom::detail
