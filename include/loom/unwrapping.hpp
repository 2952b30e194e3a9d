// loom::unwrapping(f): adapts f so that it can be called with futures and receives
// their values instead (as hpx::unwrapping): a future<T> or shared_future<T> argument
// becomes its value (get(), rethrowing a stored exception), a range of futures a
// std::vector of values, and any other argument passes unchanged. Typical use:
//
//     auto sum = loom::dataflow(loom::unwrapping([](int a, int b) { return a + b; }), fa, fb);
//
// A future<void> argument is waited for (and its exception rethrown) but passes no
// value: f is called without it.
#pragma once

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/detail/all_frame.hpp"
#include "loom/future.hpp"

namespace loom {

namespace detail {

// Each argument becomes a tuple of 0 or 1 values; the tuples are concatenated.
template <class A>
auto unwrap_to_tuple(A&& a) {
    using D = std::remove_cvref_t<A>;
    if constexpr (is_future_v<D>) {
        using V = future_value_t<D>;
        if constexpr (std::is_void_v<V>) {
            a.get();
            return std::tuple<>();
        } else if constexpr (is_unique_future_v<D>) {
            return std::tuple<V>(a.get());
        } else {
            return std::tuple<const V&>(a.get());
        }
    } else if constexpr (future_range<D>) {
        using V = std::remove_cvref_t<decltype(std::declval<std::ranges::range_value_t<D>&>().get())>;
        std::vector<V> out;
        for (auto& f : a) out.push_back(f.get());
        return std::tuple<std::vector<V>>(std::move(out));
    } else {
        return std::tuple<A&&>(std::forward<A>(a));
    }
}

template <class F>
struct unwrapped_fn {
    F f;
    template <class... A>
    decltype(auto) operator()(A&&... a) {
        return std::apply(f, std::tuple_cat(unwrap_to_tuple(std::forward<A>(a))...));
    }
    template <class... A>
    decltype(auto) operator()(A&&... a) const {
        return std::apply(f, std::tuple_cat(unwrap_to_tuple(std::forward<A>(a))...));
    }
};

}  // namespace detail

template <class F>
detail::unwrapped_fn<std::decay_t<F>> unwrapping(F&& f) {
    return {std::forward<F>(f)};
}

}  // namespace loom
