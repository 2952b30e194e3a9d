// Parallel algorithms of <numeric> with loom's execution policies: reduce,
// transform_reduce (both forms), inclusive_scan, exclusive_scan,
// transform_inclusive_scan, transform_exclusive_scan. Forms without a policy are the
// standard ones; policies, task futures and exceptions as in algorithm.hpp.
// Reductions need an associative and commutative operation (as std::reduce);
// scans an associative one.
#pragma once

#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>

#include "loom/detail/algorithm_dispatch.hpp"
#include "loom/detail/algorithm_reduce.hpp"
#include "loom/detail/algorithm_scan.hpp"
#include "loom/execution.hpp"

namespace loom {

using std::exclusive_scan;
using std::inclusive_scan;
using std::reduce;
using std::transform_exclusive_scan;
using std::transform_inclusive_scan;
using std::transform_reduce;

template <execution::execution_policy P, class It, class T, class Red, class Trans>
auto transform_reduce(P&& p, It first, It last, T init, Red red, Trans trans) {
    return detail::with_policy(p, [=, init = std::move(init)](const detail::exec_info& ei) mutable {
        return detail::transform_reduce_impl(ei, first, last, std::move(init), red, trans);
    });
}

template <execution::execution_policy P, class It1, class It2, class T, class Red, class Trans>
auto transform_reduce(P&& p, It1 first1, It1 last1, It2 first2, T init, Red red, Trans trans) {
    return detail::with_policy(p, [=, init = std::move(init)](const detail::exec_info& ei) mutable {
        return detail::transform_reduce2_impl(ei, first1, last1, first2, std::move(init), red, trans);
    });
}

template <execution::execution_policy P, class It1, class It2, class T>
auto transform_reduce(P&& p, It1 first1, It1 last1, It2 first2, T init) {
    return loom::transform_reduce(std::forward<P>(p), first1, last1, first2, std::move(init), std::plus<>{},
                                  std::multiplies<>{});
}

template <execution::execution_policy P, class It, class T, class Op>
auto reduce(P&& p, It first, It last, T init, Op op) {
    return loom::transform_reduce(std::forward<P>(p), first, last, std::move(init), std::move(op),
                                  detail::identity_fn{});
}

template <execution::execution_policy P, class It, class T>
auto reduce(P&& p, It first, It last, T init) {
    return loom::reduce(std::forward<P>(p), first, last, std::move(init), std::plus<>{});
}

template <execution::execution_policy P, class It>
auto reduce(P&& p, It first, It last) {
    return loom::reduce(std::forward<P>(p), first, last, std::iter_value_t<It>{});
}

namespace detail {
template <bool Inclusive, class T, class P, class In, class Out, class Op, class Un>
auto scan_call(P&& p, In first, In last, Out out, std::optional<T> init, Op op, Un un) {
    return with_policy(p, [=, init = std::move(init)](const exec_info& ei) mutable {
        return scan_impl<Inclusive>(ei, first, last, out, std::move(init), op, un);
    });
}
template <class In, class Un>
using transformed_t = std::decay_t<std::invoke_result_t<Un&, std::iter_reference_t<In>>>;
}  // namespace detail

template <execution::execution_policy P, class In, class Out, class Op, class Un, class T>
auto transform_inclusive_scan(P&& p, In first, In last, Out out, Op op, Un un, T init) {
    return detail::scan_call<true, T>(p, first, last, out, std::optional<T>(std::move(init)), op, un);
}

template <execution::execution_policy P, class In, class Out, class Op, class Un>
auto transform_inclusive_scan(P&& p, In first, In last, Out out, Op op, Un un) {
    using T = detail::transformed_t<In, Un>;
    return detail::scan_call<true, T>(p, first, last, out, std::optional<T>(), op, un);
}

template <execution::execution_policy P, class In, class Out, class T, class Op, class Un>
auto transform_exclusive_scan(P&& p, In first, In last, Out out, T init, Op op, Un un) {
    return detail::scan_call<false, T>(p, first, last, out, std::optional<T>(std::move(init)), op, un);
}

template <execution::execution_policy P, class In, class Out, class Op, class T>
auto inclusive_scan(P&& p, In first, In last, Out out, Op op, T init) {
    return loom::transform_inclusive_scan(std::forward<P>(p), first, last, out, op, detail::identity_fn{},
                                          std::move(init));
}

template <execution::execution_policy P, class In, class Out, class Op>
auto inclusive_scan(P&& p, In first, In last, Out out, Op op) {
    using T = std::iter_value_t<In>;
    return detail::scan_call<true, T>(p, first, last, out, std::optional<T>(), op, detail::identity_fn{});
}

template <execution::execution_policy P, class In, class Out>
auto inclusive_scan(P&& p, In first, In last, Out out) {
    return loom::inclusive_scan(std::forward<P>(p), first, last, out, std::plus<>{});
}

template <execution::execution_policy P, class In, class Out, class T, class Op>
auto exclusive_scan(P&& p, In first, In last, Out out, T init, Op op) {
    return loom::transform_exclusive_scan(std::forward<P>(p), first, last, out, std::move(init), op,
                                          detail::identity_fn{});
}

template <execution::execution_policy P, class In, class Out, class T>
auto exclusive_scan(P&& p, In first, In last, Out out, T init) {
    return loom::exclusive_scan(std::forward<P>(p), first, last, out, std::move(init), std::plus<>{});
}

}  // namespace loom
