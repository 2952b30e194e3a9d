// loom::async and loom::post: run a callable as a new task, optionally with a
// scheduling priority (loom::priority::high / normal / low).
#pragma once

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/future.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom {

namespace detail {
template <class F, class... A>
using async_result_t = std::invoke_result_t<std::decay_t<F>, std::decay_t<A>...>;
}  // namespace detail


/// Runs f(args...) as a new task with priority `p`; returns the future of its result.
/// An exception thrown by f is stored in the future and rethrown by get().
template <class F, class... A>
future<detail::async_result_t<F, A...>> async(priority p, F&& f, A&&... args) {
    using R = detail::async_result_t<F, A...>;
    auto* st = new detail::shared_state<R>(2);  // the future + the task
    ext::task* t = nullptr;
    try {
        if constexpr (sizeof...(A) == 0) {
            t = ext::make_task(
                [st, fn = std::decay_t<F>(std::forward<F>(f))]() mutable {
                    detail::fulfil<true>(st, [&]() -> R { return std::invoke(std::move(fn)); });
                    st->release();
                },
                p);
        } else {
            t = ext::make_task(
                [st, fn = std::decay_t<F>(std::forward<F>(f)),
                 tup = std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)]() mutable {
                    detail::fulfil<true>(st, [&]() -> R { return std::apply(std::move(fn), std::move(tup)); });
                    st->release();
                },
                p);
        }
    } catch (...) {
        delete st;
        throw;
    }
    st->producer = t;  // before submit: the task may finish (and free t) at once
    ext::submit(t);    // starts the pool if needed
    return detail::state_access::make_future(st);
}

template <class F, class... A>
    requires(!std::is_same_v<std::remove_cvref_t<F>, priority> &&
             !std::is_same_v<std::remove_cvref_t<F>, launch::async_policy> &&
             !std::is_same_v<std::remove_cvref_t<F>, launch::sync_policy>)
future<detail::async_result_t<F, A...>> async(F&& f, A&&... args) {
    return loom::async(priority::normal, std::forward<F>(f), std::forward<A>(args)...);
}

template <class F, class... A>
future<detail::async_result_t<F, A...>> async(launch::async_policy, F&& f, A&&... args) {
    return loom::async(priority::normal, std::forward<F>(f), std::forward<A>(args)...);
}

/// Runs f(args...) here, now; the result (or exception) is in a ready future.
template <class F, class... A>
future<detail::async_result_t<F, A...>> async(launch::sync_policy, F&& f, A&&... args) {
    using R = detail::async_result_t<F, A...>;
    auto* st = new detail::shared_state<R>(1);
    auto fut = detail::state_access::make_future(st);
    detail::fulfil(st, [&]() -> R {
        return std::invoke(std::decay_t<F>(std::forward<F>(f)), std::decay_t<A>(std::forward<A>(args))...);
    });
    return fut;
}

/// Runs f(args...) as a new task and forgets it (fire and forget). f must not throw:
/// an exception escaping a posted task terminates the program, as for std::thread.
template <class F, class... A>
void post(priority p, F&& f, A&&... args) {
    ext::task* t = nullptr;
    if constexpr (sizeof...(A) == 0) {
        t = ext::make_task(std::forward<F>(f), p);
    } else {
        t = ext::make_task(
            [fn = std::decay_t<F>(std::forward<F>(f)),
             tup = std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)]() mutable {
                std::apply(std::move(fn), std::move(tup));
            },
            p);
    }
    ext::submit(t);
}

template <class F, class... A>
    requires(!std::is_same_v<std::remove_cvref_t<F>, priority>)
void post(F&& f, A&&... args) {
    loom::post(priority::normal, std::forward<F>(f), std::forward<A>(args)...);
}

}  // namespace loom
