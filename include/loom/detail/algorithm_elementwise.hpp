// Algorithms whose iterations are independent and write element i from element i:
// for_each, transform (unary, binary), copy, fill, generate. Each chunk runs the
// sequential loop over its own sub-range.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"

namespace loom::detail {

template <class It, class F>
void for_each_impl(const exec_info& ei, It first, It last, F& f) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            bulk_for(ei, std::size_t(last - first), [&](std::size_t b, std::size_t e) {
                It it = first + std::ptrdiff_t(b);
                LOOM_DETAIL_UNROLL_LEAF
                for (std::size_t i = b; i < e; ++i, ++it) std::invoke(f, *it);
            });
            return;
        }
    }
    run_inline(ei, [&] {
        for (; first != last; ++first) std::invoke(f, *first);
    });
}

template <class In, class Out, class F>
Out transform_impl(const exec_info& ei, In first, In last, Out out, F& f) {
    if constexpr (all_random_access<In, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            bulk_for(ei, n, [&](std::size_t b, std::size_t e) {
                std::transform(first + b, first + e, out + b, std::ref(f));
            });
            return out + n;
        }
    }
    return run_inline(ei, [&] { return std::transform(first, last, out, std::ref(f)); });
}

template <class In1, class In2, class Out, class F>
Out transform2_impl(const exec_info& ei, In1 first1, In1 last1, In2 first2, Out out, F& f) {
    if constexpr (all_random_access<In1, In2, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last1 - first1);
            bulk_for(ei, n, [&](std::size_t b, std::size_t e) {
                std::transform(first1 + b, first1 + e, first2 + b, out + b, std::ref(f));
            });
            return out + n;
        }
    }
    return run_inline(ei, [&] { return std::transform(first1, last1, first2, out, std::ref(f)); });
}

template <class In, class Out>
Out copy_impl(const exec_info& ei, In first, In last, Out out) {
    if constexpr (all_random_access<In, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            bulk_for(ei, n, [&](std::size_t b, std::size_t e) { std::copy(first + b, first + e, out + b); });
            return out + n;
        }
    }
    return run_inline(ei, [&] { return std::copy(first, last, out); });
}

template <class It, class T>
void fill_impl(const exec_info& ei, It first, It last, const T& value) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            bulk_for(ei, std::size_t(last - first),
                     [&](std::size_t b, std::size_t e) { std::fill(first + b, first + e, value); });
            return;
        }
    }
    run_inline(ei, [&] { std::fill(first, last, value); });
}

template <class It, class G>
void generate_impl(const exec_info& ei, It first, It last, G& g) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            bulk_for(ei, std::size_t(last - first),
                     [&](std::size_t b, std::size_t e) { std::generate(first + b, first + e, std::ref(g)); });
            return;
        }
    }
    run_inline(ei, [&] { std::generate(first, last, std::ref(g)); });
}

}  // namespace loom::detail
