// Parallel merge of two sorted ranges (merge, and the merge steps of stable_sort):
// split the longer range at its middle element, find where that element falls in
// the other range (lower_bound / upper_bound keep the first range's elements first
// among equals: stable), merge both halves as a fork. Below `cutoff` elements
// std::merge runs; `Move` moves elements instead of copying them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>

#include "loom/detail/algorithm_fork.hpp"

namespace loom::detail {

/// Below this many elements a merge runs sequentially (also keeps the split finite).
inline constexpr std::size_t min_merge_cutoff = 4096;

/// std::merge, moving if `Move`. Not std::merge on move_iterators: the comparator
/// would then see rvalues, which a comparator taking `auto&` cannot bind.
template <bool Move, class In1, class In2, class Out, class Comp>
Out seq_merge(In1 a1, In1 a2, In2 b1, In2 b2, Out out, Comp& comp) {
    auto put = [&out](auto& x) {
        if constexpr (Move) {
            *out = std::move(x);
        } else {
            *out = x;
        }
        ++out;
    };
    while (a1 != a2 && b1 != b2) {
        if (comp(*b1, *a1)) {
            put(*b1);
            ++b1;
        } else {
            put(*a1);
            ++a1;
        }
    }
    for (; a1 != a2; ++a1) put(*a1);
    for (; b1 != b2; ++b1) put(*b1);
    return out;
}

template <bool Move, class In1, class In2, class Out, class Comp>
void merge_rec(const exec_info& ei, bulk_error& err, In1 a1, In1 a2, In2 b1, In2 b2, Out out, Comp& comp,
               std::size_t cutoff) {
    const std::size_t n1 = std::size_t(a2 - a1);
    const std::size_t n2 = std::size_t(b2 - b1);
    if (n1 + n2 <= cutoff) {
        seq_merge<Move>(a1, a2, b1, b2, out, comp);
        return;
    }
    In1 m1;
    In2 m2;
    if (n1 >= n2) {
        m1 = a1 + std::ptrdiff_t(n1 / 2);
        m2 = std::lower_bound(b1, b2, *m1, std::ref(comp));
    } else {
        m2 = b1 + std::ptrdiff_t(n2 / 2);
        m1 = std::upper_bound(a1, a2, *m2, std::ref(comp));
    }
    const Out mid_out = out + (m1 - a1) + (m2 - b1);
    fork2(
        ei, err, [&] { merge_rec<Move>(ei, err, a1, m1, b1, m2, out, comp, cutoff); },
        [&] { merge_rec<Move>(ei, err, m1, a2, m2, b2, mid_out, comp, cutoff); });
}

template <class In1, class In2, class Out, class Comp>
Out merge_impl(const exec_info& ei, In1 a1, In1 a2, In2 b1, In2 b2, Out out, Comp& comp) {
    if constexpr (all_random_access<In1, In2, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(a2 - a1) + std::size_t(b2 - b1);
            const std::size_t cutoff = std::max(min_merge_cutoff, make_plan(ei, n).chunk);
            bulk_error err;
            guarded(ei, err, [&] { merge_rec<false>(ei, err, a1, a2, b1, b2, out, comp, cutoff); });
            err.rethrow();
            return out + std::ptrdiff_t(n);
        }
    }
    return run_inline(ei, [&] { return std::merge(a1, a2, b1, b2, out, std::ref(comp)); });
}

}  // namespace loom::detail
