// loom::experimental::for_loop, HPX's shape (P0075):
//
//   for_loop(policy, first, last, reduction(sum, 0.0, std::plus<>{}), induction(x, 2),
//            [](int i, double& sum, int& x) { ... });
//
// first/last are integers or random-access iterators; f gets the index (or iterator)
// and one reference per reduction / induction, in the order they were given. A
// reduction's reference is a chunk-private accumulator that starts at `identity` and
// is combined with `op` into the variable at the end (var = op(var, ...)). An
// induction's reference holds init + stride * k at iteration k; an lvalue induction
// variable ends as init + stride * (last - first), as after a sequential loop.
// Without a policy the loop runs sequentially.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"
#include "loom/execution.hpp"

namespace loom::experimental {

template <class T, class Op>
struct reduction_t {
    T* var;
    T identity;
    Op op;
};

/// A reduction into `var` (combined with op; each chunk starts from `identity`).
template <class T, class Op>
reduction_t<T, std::decay_t<Op>> reduction(T& var, const T& identity, Op&& op) {
    return {&var, identity, std::forward<Op>(op)};
}

template <class T, class S>
struct induction_t {
    T value;  // U& for an lvalue (written back at the end), U otherwise
    S stride;
};

/// An induction variable: init + stride * k at iteration k.
template <class T, class S = int>
induction_t<T, S> induction(T&& value, S stride = 1) {
    return {std::forward<T>(value), stride};
}

}  // namespace loom::experimental

namespace loom::detail {

template <class A>
struct loop_arg;  // what one reduction / induction keeps per chunk

template <class T, class Op>
struct loop_arg<experimental::reduction_t<T, Op>> {
    using local = T;
    static T start(const experimental::reduction_t<T, Op>& r, std::size_t /*k*/) { return r.identity; }
    static void at(const experimental::reduction_t<T, Op>& /*r*/, T& /*l*/, std::size_t /*k*/) {}
    static T combine(const experimental::reduction_t<T, Op>& r, T&& a, T&& b) {
        return std::invoke(r.op, std::move(a), std::move(b));
    }
    static void finish(experimental::reduction_t<T, Op>& r, T* l, std::size_t /*n*/) {
        if (l != nullptr) *r.var = std::invoke(r.op, std::move(*r.var), std::move(*l));
    }
};

template <class T, class S>
struct loop_arg<experimental::induction_t<T, S>> {
    using value = std::remove_cvref_t<T>;
    using local = value;
    static value start(const experimental::induction_t<T, S>& d, std::size_t k) { return value_at(d, k); }
    static void at(const experimental::induction_t<T, S>& d, value& l, std::size_t k) { l = value_at(d, k); }
    static value combine(const experimental::induction_t<T, S>& /*d*/, value&& a, value&& /*b*/) {
        return std::move(a);
    }
    static void finish(experimental::induction_t<T, S>& d, value* /*l*/, std::size_t n) {
        if constexpr (std::is_lvalue_reference_v<T>) d.value = value_at(d, n);
    }
    static value value_at(const experimental::induction_t<T, S>& d, std::size_t k) {
        return value(d.value + d.stride * static_cast<S>(k));
    }
};

template <class A>
using loop_local_t = typename loop_arg<std::remove_cvref_t<A>>::local;

/// Iteration k's index: an integer or an iterator.
template <class I>
I loop_index(I first, std::size_t k) {
    return first + static_cast<std::iter_difference_t<I>>(k);
}

template <class I, class F, class... A>
void for_loop_impl(const exec_info& ei, I first, I last, F& f, std::tuple<A...>& args) {
    using locals = std::tuple<loop_local_t<A>...>;
    using seq = std::index_sequence_for<A...>;
    const std::size_t n = last > first ? std::size_t(last - first) : 0;
    auto leaf = [&](std::size_t b, std::size_t e) {
        return [&]<std::size_t... J>(std::index_sequence<J...>) {
            locals l{loop_arg<A>::start(std::get<J>(args), b)...};
            LOOM_DETAIL_UNROLL_LEAF
            for (std::size_t k = b; k < e; ++k) {
                (loop_arg<A>::at(std::get<J>(args), std::get<J>(l), k), ...);
                std::invoke(f, loop_index(first, k), std::get<J>(l)...);
            }
            return l;
        }(seq{});
    };
    auto combine = [&](locals&& x, locals&& y) {
        return [&]<std::size_t... J>(std::index_sequence<J...>) {
            return locals{loop_arg<A>::combine(std::get<J>(args), std::move(std::get<J>(x)), std::move(std::get<J>(y)))...};
        }(seq{});
    };
    std::optional<locals> r;
    if (ei.parallel()) {
        r = bulk_reduce<locals>(ei, n, leaf, combine);
    } else if (n > 0) {
        r.emplace(run_inline(ei, [&] { return leaf(0, n); }));
    }
    [&]<std::size_t... J>(std::index_sequence<J...>) {
        (loop_arg<A>::finish(std::get<J>(args), r ? &std::get<J>(*r) : nullptr, n), ...);
    }(seq{});
}

template <class Policy, class I, class Tuple, std::size_t... J>
auto for_loop_split(const Policy& policy, I first, I last, Tuple&& all, std::index_sequence<J...> /*unused*/) {
    constexpr std::size_t last_arg = std::tuple_size_v<std::remove_cvref_t<Tuple>> - 1;
    return with_policy(policy, [first, last, f = std::get<last_arg>(std::forward<Tuple>(all)),
                                args = std::make_tuple(std::get<J>(std::forward<Tuple>(all))...)](
                                   const exec_info& ei) mutable { for_loop_impl(ei, first, last, f, args); });
}

}  // namespace loom::detail

namespace loom::experimental {

/// for_loop(policy, first, last, [reduction | induction]..., f)
template <execution::execution_policy Policy, class I, class... Args>
    requires(sizeof...(Args) >= 1)
auto for_loop(Policy&& policy, I first, std::type_identity_t<I> last, Args&&... args) {
    return detail::for_loop_split(policy, first, last, std::forward_as_tuple(std::forward<Args>(args)...),
                                  std::make_index_sequence<sizeof...(Args) - 1>{});
}

/// for_loop(first, last, [reduction | induction]..., f): sequential.
template <class I, class... Args>
    requires(sizeof...(Args) >= 1 && !execution::execution_policy<I>)
void for_loop(I first, std::type_identity_t<I> last, Args&&... args) {
    for_loop(execution::seq, first, last, std::forward<Args>(args)...);
}

/// for_loop_n(policy, first, count, ...): for_loop over [first, first + count).
template <execution::execution_policy Policy, class I, class Size, class... Args>
    requires(sizeof...(Args) >= 1)
auto for_loop_n(Policy&& policy, I first, Size count, Args&&... args) {
    return for_loop(std::forward<Policy>(policy), first, loom::detail::loop_index(first, std::size_t(count)),
                    std::forward<Args>(args)...);
}

template <class I, class Size, class... Args>
    requires(sizeof...(Args) >= 1 && !execution::execution_policy<I>)
void for_loop_n(I first, Size count, Args&&... args) {
    for_loop_n(execution::seq, first, count, std::forward<Args>(args)...);
}

}  // namespace loom::experimental
