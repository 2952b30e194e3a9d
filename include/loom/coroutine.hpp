// Coroutines on loom's futures:
//   - a function returning loom::future<T> (or shared_future<T>) may be a coroutine: it
//     starts at once in its caller, may co_await, and co_return's its value; an
//     exception leaving its body is stored in the future;
//   - co_await works on loom::future<T> (consumed, as get() does), shared_future<T>
//     (copied from; an lvalue gives a reference, as get() does), and so on everything
//     that is a future already: when_all, when_any, dataflow, async, then;
//   - co_await loom::resume_on_pool() moves the coroutine onto the pool.
// A ready future is read without suspending. Otherwise the coroutine suspends and is
// resumed as a task of the pool by whoever makes the future ready: no worker blocks.
// Lazy coroutines for structured recursion: loom/lazy.hpp. Tutorial: docs/coroutines.md.
#pragma once

#include <coroutine>

#include "loom/detail/coro_resume.hpp"
#include "loom/detail/future_awaiter.hpp"
#include "loom/detail/future_promise.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/future.hpp"

namespace loom {

namespace detail {
template <class F>
auto* awaited_state(F& f) {
    auto* st = state_access::get(f);
    if (st == nullptr) throw_future_error(std::future_errc::no_state);
    return st;
}
}  // namespace detail

/// co_await f: the value of f (moved out) or its exception rethrown; f becomes invalid.
/// Throws future_error(no_state) if f is not valid.
template <class T>
auto operator co_await(future<T>&& f) {
    detail::awaited_state(f);
    return detail::future_awaiter<T, detail::await_mode::take>(detail::state_access::take(f));
}
template <class T>
auto operator co_await(future<T>& f) {
    return operator co_await(std::move(f));
}

/// co_await sf: a reference to the value, valid while a shared_future of it lives (as
/// get()), or its exception rethrown; sf stays valid.
template <class T>
auto operator co_await(const shared_future<T>& f) {
    return detail::future_awaiter<T, detail::await_mode::shared_ref>(detail::awaited_state(f));
}
/// co_await of a shared_future about to die: a copy of the value (a reference when T
/// cannot be copied, valid to the end of the full-expression).
template <class T>
auto operator co_await(shared_future<T>&& f) {
    auto* st = detail::awaited_state(f);
    st->add_ref();  // the awaiter's own; f releases its reference as usual
    return detail::future_awaiter<T, detail::await_mode::shared_copy>(st);
}

/// co_await resume_on_pool(): the coroutine suspends and goes on as a new task of the
/// pool (a coroutine started on a thread outside the pool moves onto it; on a worker,
/// the rest of the coroutine may be stolen while the caller goes on).
struct resume_on_pool {
    priority prio = priority::normal;

    bool await_ready() const noexcept { return false; }
    template <class P>
    void await_suspend(std::coroutine_handle<P> h) const {
        ext::submit(detail::resumption_task(h, prio));
    }
    void await_resume() const noexcept {}
};

}  // namespace loom

namespace std {

template <class T, class... Args>
struct coroutine_traits<loom::future<T>, Args...> {
    using promise_type = loom::detail::future_promise<loom::future<T>>;
};

template <class T, class... Args>
struct coroutine_traits<loom::shared_future<T>, Args...> {
    using promise_type = loom::detail::future_promise<loom::shared_future<T>>;
};

}  // namespace std
