// co_await of a sender inside loom's coroutines (a function returning loom::future<T>,
// shared_future<T> or loom::lazy<T>; any coroutine type without an await_transform):
//
//   co_await sndr   the value (T for one value, nothing for none, std::tuple for several);
//                   an error is thrown (an exception_ptr rethrown, any other error thrown
//                   as itself); set_stopped throws execution::experimental::operation_stopped
//
// The awaiter connects the sender to a receiver that keeps the outcome in the awaiter
// (in the coroutine frame) and starts it. A sender that completes inside start() (just,
// then on it, a ready future) lets the coroutine go on without suspending. Otherwise the
// coroutine suspends, and the context that completes the sender submits the coroutine's
// resumption task (detail/coro_resume.hpp: the frame's own record for loom's coroutines),
// so the coroutine goes on as a task of the pool, never inside the completing context.
//
// The race between "completed" and "suspended" is one exchange on each side (acq_rel):
// whichever comes second knows the other has happened. The outcome is written before the
// receiver's exchange, so the coroutine reads it after either path.
#pragma once

#include <atomic>
#include <coroutine>
#include <exception>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/coro_frame.hpp"
#include "loom/detail/coro_resume.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_future.hpp"
#include "loom/detail/sender_scheduler.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::execution::experimental {

namespace detail {

/// Frees a resumption task that was taken but is not needed (the frame's own record is
/// not freed: it lives as long as the frame).
template <class P>
void discard_resumption(std::coroutine_handle<P> h, ext::task* t) noexcept {
    if constexpr (std::is_base_of_v<::loom::detail::resumable_frame, P>) {
        if (t == h.promise().frame_record()) return;
    }
    ext::free_task(t);
}

template <class S>
concept awaitable_sender = sender<S> && requires { typename future_value_t<S>; };

template <class S>
class sender_awaiter {
    using value_type = future_value_t<S>;
    using stored_value = std::conditional_t<std::is_void_v<value_type>, std::monostate, value_type>;
    struct stopped_tag {};

    static constexpr int idle = 0;
    static constexpr int completed = 1;
    static constexpr int suspended = 2;

    struct receiver_type {
        using receiver_concept = receiver_t;
        sender_awaiter* aw;

        template <class... As>
        void set_value(As&&... as) && noexcept {
            try {
                if constexpr (std::is_void_v<value_type>) {
                    aw->outcome_.template emplace<1>();
                } else if constexpr (sizeof...(As) == 1) {
                    aw->outcome_.template emplace<1>(std::forward<As>(as)...);
                } else {
                    aw->outcome_.template emplace<1>(value_type(std::forward<As>(as)...));
                }
            } catch (...) {
                aw->outcome_.template emplace<2>(std::current_exception());
            }
            aw->completed_now();
        }
        template <class E>
        void set_error(E&& e) && noexcept {
            aw->outcome_.template emplace<2>(as_exception_ptr(std::forward<E>(e)));
            aw->completed_now();
        }
        void set_stopped() && noexcept {
            aw->outcome_.template emplace<3>();
            aw->completed_now();
        }
        [[nodiscard]] env<prop<get_scheduler_t, pool_scheduler>> get_env() const noexcept {
            return env<prop<get_scheduler_t, pool_scheduler>>(prop<get_scheduler_t, pool_scheduler>{{}, pool_scheduler()});
        }
    };

public:
    explicit sender_awaiter(S&& s) : op_(experimental::connect(std::forward<S>(s), receiver_type{this})) {}
    sender_awaiter(const sender_awaiter&) = delete;
    sender_awaiter& operator=(const sender_awaiter&) = delete;

    [[nodiscard]] bool await_ready() const noexcept { return false; }

    template <class P>
    bool await_suspend(std::coroutine_handle<P> h) {
        // Taken before start: once the operation runs, nothing here may throw (the
        // frame's own record for loom's coroutines, so no allocation there).
        ext::task* t = ::loom::detail::resumption_task(h);
        resume_ = t;
        experimental::start(op_);
        if (phase_.exchange(suspended, std::memory_order_acq_rel) == completed) {
            discard_resumption(h, t);  // completed inside start() or meanwhile: go on here
            return false;
        }
        return true;  // the coroutine (and this awaiter) may be gone from here on
    }

    value_type await_resume() {
        switch (outcome_.index()) {
            case 2:
                std::rethrow_exception(std::get<2>(std::move(outcome_)));
            case 3:
                throw operation_stopped();
            default:
                break;
        }
        if constexpr (!std::is_void_v<value_type>) return std::get<1>(std::move(outcome_));
    }

private:
    void completed_now() noexcept {
        if (phase_.exchange(completed, std::memory_order_acq_rel) == suspended) ext::submit(resume_);
    }

    std::variant<std::monostate, stored_value, std::exception_ptr, stopped_tag> outcome_;
    std::atomic<int> phase_{idle};
    ext::task* resume_ = nullptr;
    connect_result_t<S, receiver_type> op_;
};

/// co_await sndr (found by argument-dependent lookup for loom's senders).
template <awaitable_sender S>
sender_awaiter<S> operator co_await(S&& s) {
    return sender_awaiter<S>(std::forward<S>(s));
}

}  // namespace detail

using detail::operator co_await;

}  // namespace loom::execution::experimental
