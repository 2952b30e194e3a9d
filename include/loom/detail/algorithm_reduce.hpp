// reduce and transform_reduce (all forms) over the engine: each chunk folds its
// elements left to right starting from its first (transformed) element, the chunk
// results are combined with the same operation, and init is added last. As for
// std::reduce, the operation must be associative and commutative for a
// deterministic result.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <numeric>
#include <utility>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"

namespace loom::detail {

/// GENERALIZED_SUM(red, init, get(0), ..., get(n-1)) in parallel.
template <class T, class Red, class Get>
T reduce_indexed(const exec_info& ei, std::size_t n, T init, Red& red, Get& get) {
    auto leaf = [&](std::size_t b, std::size_t e) {
        T acc(get(b));
        LOOM_DETAIL_UNROLL_LEAF
        for (std::size_t i = b + 1; i < e; ++i) acc = std::invoke(red, std::move(acc), get(i));
        return acc;
    };
    auto combine = [&](T&& a, T&& b) { return T(std::invoke(red, std::move(a), std::move(b))); };
    auto r = bulk_reduce<T>(ei, n, leaf, combine);
    if (!r) return init;
    return std::invoke(red, std::move(init), std::move(*r));
}

template <class It, class T, class Red, class Trans>
T transform_reduce_impl(const exec_info& ei, It first, It last, T init, Red& red, Trans& trans) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            auto get = [&](std::size_t i) -> decltype(auto) { return std::invoke(trans, first[i]); };
            return reduce_indexed(ei, std::size_t(last - first), std::move(init), red, get);
        }
    }
    return run_inline(ei, [&] {
        return std::transform_reduce(first, last, std::move(init), std::ref(red), std::ref(trans));
    });
}

template <class It1, class It2, class T, class Red, class Trans>
T transform_reduce2_impl(const exec_info& ei, It1 first1, It1 last1, It2 first2, T init, Red& red, Trans& trans) {
    if constexpr (all_random_access<It1, It2>) {
        if (ei.parallel()) {
            auto get = [&](std::size_t i) -> decltype(auto) { return std::invoke(trans, first1[i], first2[i]); };
            return reduce_indexed(ei, std::size_t(last1 - first1), std::move(init), red, get);
        }
    }
    return run_inline(ei, [&] {
        return std::transform_reduce(first1, last1, first2, std::move(init), std::ref(red), std::ref(trans));
    });
}

}  // namespace loom::detail
