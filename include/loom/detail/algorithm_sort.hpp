// sort: parallel quicksort (median-of-three pivot, the right part forked, a
// three-way split when the left part comes out small, i.e. many keys equal the
// pivot; std::sort below the cutoff and past a depth limit). stable_sort: parallel
// merge sort that ping-pongs between the range and one buffer of moved-out elements
// (std::stable_sort at the leaves, merge_rec between levels). Both need only move
// construction and move assignment, so move-only elements work.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

#include "loom/detail/algorithm_fork.hpp"
#include "loom/detail/algorithm_merge.hpp"

namespace loom::detail {

/// Ranges below this are always sorted sequentially: a task costs about as much as
/// sorting a few thousand elements.
inline constexpr std::size_t min_sort_cutoff = 2048;

/// Moves the median of first, middle, last-1 to *first.
template <class It, class Comp>
void pivot_to_front(It first, It last, Comp& comp) {
    It a = first + 1;
    It b = first + (last - first) / 2;
    It c = last - 1;
    if (comp(*b, *a)) std::swap(a, b);
    if (comp(*c, *b)) b = comp(*c, *a) ? a : c;
    std::iter_swap(first, b);
}

template <class It, class Comp>
void quicksort_rec(const exec_info& ei, bulk_error& err, It first, It last, Comp& comp, std::size_t cutoff,
                   int depth) {
    const std::size_t n = std::size_t(last - first);
    if (n <= cutoff || depth == 0) {
        std::sort(first, last, std::ref(comp));
        return;
    }
    pivot_to_front(first, last, comp);
    It mid = std::partition(first + 1, last, [&](const auto& x) { return comp(x, *first); });
    std::iter_swap(first, mid - 1);  // the pivot between the parts
    It right = mid;
    It left_end = mid - 1;
    if (std::size_t(left_end - first) < n / 16) {
        // Few smaller keys: many may equal the pivot; keep them out of the recursion.
        right = std::partition(mid, last, [&](const auto& x) { return !comp(*left_end, x); });
    }
    fork2(
        ei, err, [&] { quicksort_rec(ei, err, first, left_end, comp, cutoff, depth - 1); },
        [&] { quicksort_rec(ei, err, right, last, comp, cutoff, depth - 1); });
}

template <class It, class Comp>
void sort_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        const std::size_t n = std::size_t(last - first);
        if (ei.parallel() && n > min_sort_cutoff) {
            const bulk_plan plan = make_plan(ei, n);
            if (plan.lanes > 1) {
                const std::size_t cutoff = std::max(min_sort_cutoff, plan.chunk);
                const int depth = 2 * std::bit_width(n);  // then std::sort (introsort) takes over
                bulk_error err;
                guarded(ei, err, [&] { quicksort_rec(ei, err, first, last, comp, cutoff, depth); });
                err.rethrow();
                return;
            }
        }
    }
    run_inline(ei, [&] { std::sort(first, last, std::ref(comp)); });
}

/// Sorts a[0, n) stably; the result ends in b if `to_b`, else in a. Both hold n
/// live elements; whichever does not receive the result is scratch.
template <class A, class B, class Comp>
void merge_sort_rec(const exec_info& ei, bulk_error& err, A a, B b, std::size_t n, bool to_b, Comp& comp,
                    std::size_t cutoff) {
    if (n <= cutoff) {
        std::stable_sort(a, a + std::ptrdiff_t(n), std::ref(comp));
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
    run_inline(ei, [&] { std::stable_sort(first, last, std::ref(comp)); });
}

}  // namespace loom::detail
