// Range forms of loom's algorithms, in loom::ranges:
//
//   loom::ranges::sort(v);                          sequential
//   loom::ranges::sort(loom::execution::par, v);    with a policy
//   loom::ranges::merge(par, r1, r2, out);          two input ranges
//
// Each takes a common range (begin and end of one type) in place of an iterator pair
// and forwards to the iterator form with the remaining arguments unchanged, so it
// returns what that form returns: iterators (not std::ranges' *_result structs), a
// value, or a future with policy(task) (the range must then outlive the future, as
// must a range whose iterators are returned).
#pragma once

#include <iterator>
#include <ranges>
#include <utility>

#include "loom/algorithm.hpp"
#include "loom/execution.hpp"
#include "loom/numeric.hpp"

namespace loom::ranges {

/// A callable object per algorithm (so that ADL never picks std::ranges' versions):
/// (range, args...) and (policy, range, args...) both forward to loom::NAME. A macro
/// because the 25 objects differ only in the name they forward to.
#define LOOM_RANGE_ALGORITHM(name)                                                                   \
    struct name##_fn {                                                                               \
        template <std::ranges::common_range R, class... A>                                           \
        auto operator()(R&& r, A&&... a) const {                                                     \
            return loom::name(std::ranges::begin(r), std::ranges::end(r), std::forward<A>(a)...);    \
        }                                                                                            \
        template <execution::execution_policy P, std::ranges::common_range R, class... A>            \
        auto operator()(P&& p, R&& r, A&&... a) const {                                              \
            return loom::name(std::forward<P>(p), std::ranges::begin(r), std::ranges::end(r),        \
                              std::forward<A>(a)...);                                                \
        }                                                                                            \
    };                                                                                               \
    inline constexpr name##_fn name {}

LOOM_RANGE_ALGORITHM(for_each);
LOOM_RANGE_ALGORITHM(transform);
LOOM_RANGE_ALGORITHM(copy);
LOOM_RANGE_ALGORITHM(copy_if);
LOOM_RANGE_ALGORITHM(fill);
LOOM_RANGE_ALGORITHM(generate);
LOOM_RANGE_ALGORITHM(count);
LOOM_RANGE_ALGORITHM(count_if);
LOOM_RANGE_ALGORITHM(find);
LOOM_RANGE_ALGORITHM(find_if);
LOOM_RANGE_ALGORITHM(any_of);
LOOM_RANGE_ALGORITHM(all_of);
LOOM_RANGE_ALGORITHM(none_of);
LOOM_RANGE_ALGORITHM(min_element);
LOOM_RANGE_ALGORITHM(max_element);
LOOM_RANGE_ALGORITHM(minmax_element);
LOOM_RANGE_ALGORITHM(partition);
LOOM_RANGE_ALGORITHM(sort);
LOOM_RANGE_ALGORITHM(stable_sort);
LOOM_RANGE_ALGORITHM(reduce);
LOOM_RANGE_ALGORITHM(transform_reduce);
LOOM_RANGE_ALGORITHM(inclusive_scan);
LOOM_RANGE_ALGORITHM(exclusive_scan);
LOOM_RANGE_ALGORITHM(transform_inclusive_scan);
LOOM_RANGE_ALGORITHM(transform_exclusive_scan);

#undef LOOM_RANGE_ALGORITHM

/// merge takes two ranges.
struct merge_fn {
    template <std::ranges::common_range R1, std::ranges::common_range R2, class Out, class... A>
    auto operator()(R1&& r1, R2&& r2, Out out, A&&... a) const {
        return loom::merge(std::ranges::begin(r1), std::ranges::end(r1), std::ranges::begin(r2),
                           std::ranges::end(r2), out, std::forward<A>(a)...);
    }
    template <execution::execution_policy P, std::ranges::common_range R1, std::ranges::common_range R2, class Out,
              class... A>
    auto operator()(P&& p, R1&& r1, R2&& r2, Out out, A&&... a) const {
        return loom::merge(std::forward<P>(p), std::ranges::begin(r1), std::ranges::end(r1),
                           std::ranges::begin(r2), std::ranges::end(r2), out, std::forward<A>(a)...);
    }
};
inline constexpr merge_fn merge{};

}  // namespace loom::ranges
