// Algorithms that look for elements: count/count_if, find/find_if (any_of, all_of,
// none_of build on it), min_element, max_element, minmax_element. The chunk results
// are combined by position, so claiming (out of order) gives the sequential answer:
// the first match, the first minimum, the first maximum (the last for minmax).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <iterator>
#include <utility>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"

namespace loom::detail {

template <class It, class Pred>
typename std::iterator_traits<It>::difference_type count_if_impl(const exec_info& ei, It first, It last,
                                                                 Pred& pred) {
    using diff = typename std::iterator_traits<It>::difference_type;
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            auto r = bulk_reduce<diff>(
                ei, std::size_t(last - first),
                [&](std::size_t b, std::size_t e) { return std::count_if(first + b, first + e, std::ref(pred)); },
                std::plus<>{});
            return r.value_or(0);
        }
    }
    return run_inline(ei, [&] { return std::count_if(first, last, std::ref(pred)); });
}

/// The first position whose element satisfies pred. A chunk that starts after a match
/// already found is skipped; one that finds a match lowers `found` (atomic min).
template <class It, class Pred>
It find_if_impl(const exec_info& ei, It first, It last, Pred& pred) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            std::atomic<std::size_t> found{n};
            bulk_for(ei, n, [&](std::size_t b, std::size_t e) {
                if (b >= found.load(std::memory_order_relaxed)) return;
                const It hit = std::find_if(first + b, first + e, std::ref(pred));
                std::size_t pos = std::size_t(hit - first);
                if (pos == e) return;
                std::size_t cur = found.load(std::memory_order_relaxed);
                while (pos < cur && !found.compare_exchange_weak(cur, pos, std::memory_order_relaxed)) {
                }
            });
            return first + found.load(std::memory_order_relaxed);  // the join ordered it
        }
    }
    return run_inline(ei, [&] { return std::find_if(first, last, std::ref(pred)); });
}

/// Index of the chosen element of a chunk, combined by (value, position).
template <bool Max, bool LastOnTie, class It, class Comp>
It extremum_impl(const exec_info& ei, It first, It last, Comp& comp) {
    // better(a, b): a wins over b (a, b positions; the winner is kept).
    auto better = [&](std::size_t a, std::size_t b) {
        const auto& x = first[a];
        const auto& y = first[b];
        const bool a_beyond = Max ? comp(y, x) : comp(x, y);
        const bool b_beyond = Max ? comp(x, y) : comp(y, x);
        if (a_beyond) return true;
        if (b_beyond) return false;
        return LastOnTie ? a > b : a < b;
    };
    const auto chunk_best = [&](std::size_t b, std::size_t e) {
        std::size_t best = b;
        for (std::size_t i = b + 1; i < e; ++i)
            if (better(i, best)) best = i;
        return best;
    };
    auto r = bulk_reduce<std::size_t>(ei, std::size_t(last - first), chunk_best,
                                      [&](std::size_t a, std::size_t b) { return better(a, b) ? a : b; });
    return r ? first + *r : last;
}

template <class It, class Comp>
It min_element_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) return extremum_impl<false, false>(ei, first, last, comp);
    }
    return run_inline(ei, [&] { return std::min_element(first, last, std::ref(comp)); });
}

template <class It, class Comp>
It max_element_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) return extremum_impl<true, false>(ei, first, last, comp);
    }
    return run_inline(ei, [&] { return std::max_element(first, last, std::ref(comp)); });
}

/// std::minmax_element's answer: the first smallest and the LAST largest element.
template <class It, class Comp>
std::pair<It, It> minmax_element_impl(const exec_info& ei, It first, It last, Comp& comp) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            if (first == last) return {last, last};
            // Two passes keep the combine simple; each is a parallel reduction.
            return {extremum_impl<false, false>(ei, first, last, comp),
                    extremum_impl<true, true>(ei, first, last, comp)};
        }
    }
    return run_inline(ei, [&] { return std::minmax_element(first, last, std::ref(comp)); });
}

}  // namespace loom::detail
