// The pipe: `sndr | then(f)` is then(sndr, f), and adaptor closures compose,
// `sndr | (then(f) | continues_on(sch))`. An adaptor called without its sender returns a
// closure object (C++26 [exec.adapt.obj]); a type derived from
// sender_adaptor_closure<Self> that is callable with a sender is a closure too.
#pragma once

#include <concepts>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental {

template <class Derived>
struct sender_adaptor_closure {};

namespace detail {

template <class T>
concept adaptor_closure = std::derived_from<std::remove_cvref_t<T>, sender_adaptor_closure<std::remove_cvref_t<T>>> &&
                          std::move_constructible<std::remove_cvref_t<T>>;

/// An adaptor with its arguments but without its sender: Fn{}(sndr, args...) later.
template <class Fn, class... Args>
struct bound_closure : sender_adaptor_closure<bound_closure<Fn, Args...>> {
    std::tuple<Args...> args;

    template <sender S>
    auto operator()(S&& s) && {
        return std::apply([&](Args&... a) { return Fn{}(std::forward<S>(s), std::move(a)...); }, args);
    }
    template <sender S>
    auto operator()(S&& s) const& {
        return std::apply([&](const Args&... a) { return Fn{}(std::forward<S>(s), a...); }, args);
    }
};

template <class Fn, class... Args>
bound_closure<Fn, std::decay_t<Args>...> bind_closure(Args&&... args) {
    return {{}, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...)};
}

/// The adaptor object of the algorithms that take a sender and one function and differ
/// only in the completion they act on (then / upon_error / upon_stopped, let_value /
/// let_error / let_stopped): Sender<Tag, S, F> with the sender, or the pipe closure.
template <template <class, class, class> class Sender, class Tag>
struct fn_adaptor {
    template <sender S, class F>
    auto operator()(S&& s, F&& f) const {
        return Sender<Tag, std::decay_t<S>, std::decay_t<F>>(std::forward<S>(s), std::forward<F>(f));
    }
    template <class F>
    auto operator()(F&& f) const {
        return bind_closure<fn_adaptor>(std::forward<F>(f));
    }
};

/// c1 | c2: a closure that applies c1, then c2.
template <class C1, class C2>
struct composed_closure : sender_adaptor_closure<composed_closure<C1, C2>> {
    C1 first;
    C2 second;

    template <sender S>
    auto operator()(S&& s) && {
        return std::move(second)(std::move(first)(std::forward<S>(s)));
    }
    template <sender S>
    auto operator()(S&& s) const& {
        return second(first(std::forward<S>(s)));
    }
};

}  // namespace detail

template <sender S, detail::adaptor_closure C>
    requires std::invocable<C, S>
auto operator|(S&& s, C&& c) {
    return std::forward<C>(c)(std::forward<S>(s));
}

template <detail::adaptor_closure C1, detail::adaptor_closure C2>
auto operator|(C1&& c1, C2&& c2) {
    return detail::composed_closure<std::remove_cvref_t<C1>, std::remove_cvref_t<C2>>{
        {}, std::forward<C1>(c1), std::forward<C2>(c2)};
}

}  // namespace loom::execution::experimental
