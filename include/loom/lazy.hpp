// loom::lazy<T>: a coroutine that starts only when awaited, for structured recursion.
//
//   loom::lazy<long> fib(int n) {
//       if (n < 2) co_return n;
//       auto a = loom::spawn(fib(n - 1));   // runs as a task (may be stolen)
//       long b = co_await fib(n - 2);       // runs here, now
//       co_return co_await a + b;
//   }
//   long r = loom::start(fib(30)).get();
//
// Awaiting a lazy runs it in the awaiting coroutine's context; when it finishes, the
// awaiter goes on. Neither nests on the stack: both go through a loop (coro_driver.hpp),
// so a chain of 10^5 nested awaits needs the stack of one. A lazy costs its frame and
// nothing else: the frame is a task record from the thread's cache, its result stays in
// it, and it is destroyed when the co_await that consumed it ends. A lazy is awaited
// once, as an rvalue (co_await fib(n), co_await std::move(t)).
//
// The name: loom::execution::task is the policy tag of par(task), so `task` would clash
// in code that uses both namespaces.
#pragma once

#include <coroutine>
#include <utility>

#include "loom/coroutine.hpp"
#include "loom/detail/config.hpp"
#include "loom/detail/coro_driver.hpp"
#include "loom/detail/coro_frame.hpp"
#include "loom/detail/coro_result.hpp"
#include "loom/detail/coro_resume.hpp"
#include "loom/detail/future_promise.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/future.hpp"

namespace loom {

template <class T = void>
class lazy;

namespace detail {
struct spawn_tag {};
template <class T>
class spawn_promise;
}  // namespace detail

}  // namespace loom

// spawn's coroutine (first parameter spawn_tag) has a promise of its own.
namespace std {
template <class T, class... Args>
struct coroutine_traits<loom::future<T>, loom::detail::spawn_tag, Args...> {
    using promise_type = loom::detail::spawn_promise<T>;
};
}  // namespace std

namespace loom {

namespace detail {

template <class T>
class lazy_promise : public coro_frame_allocation,
                     public frame_record_unused,
                     public driven_promise,
                     public coro_value_slot<T> {
public:
    lazy<T> get_return_object() noexcept;
    std::suspend_always initial_suspend() const noexcept { return {}; }

    // A lazy always runs under a loop (its awaiter starts it through one), so it hands
    // its continuation to that loop.
    struct final_awaiter {
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<lazy_promise> h) const noexcept {
            lazy_promise& p = h.promise();
            LOOM_CHECK_USAGE(p.driver != nullptr, "a lazy was resumed outside a loom loop");
            p.driver->hand_over(p.continuation);
        }
        void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() const noexcept { return {}; }

    coro_step continuation;  // the coroutine that awaits this one
};

}  // namespace detail

template <class T>
class [[nodiscard]] lazy {
public:
    using promise_type = detail::lazy_promise<T>;
    using value_type = T;

    lazy() noexcept = default;
    lazy(lazy&& o) noexcept : h_(std::exchange(o.h_, {})) {}
    lazy& operator=(lazy&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, {});
        }
        return *this;
    }
    lazy(const lazy&) = delete;
    lazy& operator=(const lazy&) = delete;
    /// A lazy never awaited is destroyed without having run.
    ~lazy() { reset(); }

    /// False for a default-constructed or moved-from (awaited) lazy.
    [[nodiscard]] bool valid() const noexcept { return static_cast<bool>(h_); }

    class awaiter {
    public:
        explicit awaiter(std::coroutine_handle<promise_type> h) noexcept : child_(h) {}
        awaiter(const awaiter&) = delete;
        awaiter& operator=(const awaiter&) = delete;
        // The child's frame ends with the co_await expression that consumed it.
        ~awaiter() { child_.destroy(); }

        bool await_ready() const noexcept { return false; }
        template <class P>
        bool await_suspend(std::coroutine_handle<P> caller) noexcept {
            promise_type& child = child_.promise();
            child.continuation = detail::step_of(caller);
            return detail::transfer(caller, detail::coro_step{child_, &child});
        }
        T await_resume() { return child_.promise().result.take(); }

    private:
        std::coroutine_handle<promise_type> child_;
    };

    /// Starts the lazy in the awaiting coroutine; gives its value or rethrows its
    /// exception. The lazy becomes invalid.
    awaiter operator co_await() && noexcept {
        LOOM_CHECK_USAGE(h_, "co_await on a lazy that is empty or was awaited already");
        return awaiter(std::exchange(h_, {}));
    }

private:
    friend class detail::lazy_promise<T>;
    explicit lazy(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
    void reset() noexcept {
        if (h_) std::exchange(h_, {}).destroy();
    }

    std::coroutine_handle<promise_type> h_;
};

template <class T>
lazy<T> detail::lazy_promise<T>::get_return_object() noexcept {
    return lazy<T>(std::coroutine_handle<lazy_promise>::from_promise(*this));
}

/// Runs `t` now, in the calling context, until its first suspension; the future
/// becomes ready when it finishes. From a plain function: start(t).get().
template <class T>
future<T> start(lazy<T> t) {
    co_return co_await std::move(t);
}

namespace detail {

/// The promise of spawn's coroutine: it starts as a task of its own, which stays the
/// future's producer until the future is ready, so that an awaiter (or get()) on the
/// same worker runs it inline while nobody stole it.
template <class T>
class spawn_promise : public future_promise<future<T>> {
public:
    spawn_promise(spawn_tag, priority p, lazy<T>&)
        : record_(make_resumption(coro_step{}, p, /*owned_by_coroutine=*/true)) {}
    spawn_promise(const spawn_promise&) = delete;
    spawn_promise& operator=(const spawn_promise&) = delete;
    ~spawn_promise() {
        if (record_ != nullptr) ext::free_task(record_);  // a frame that never started
    }

    struct post_self {
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<spawn_promise> h) const noexcept {
            spawn_promise& p = h.promise();
            ext::task* r = p.record_;
            r->data<coro_resumption>()->step = step_of(h);
            p.st_->producer = r;  // before the future is returned, so before it is shared
            ext::submit(r);
        }
        void await_resume() const noexcept {}
    };
    post_self initial_suspend() const noexcept { return {}; }

    // The record is freed only once the future is ready: until then its address, kept
    // as the state's producer, names no other task.
    struct final_awaiter {
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<spawn_promise> h) const noexcept {
            spawn_promise::finish(h, std::exchange(h.promise().record_, nullptr));
        }
        void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() const noexcept { return {}; }

private:
    ext::task* record_;  // the task the coroutine runs in
};

template <class T>
future<T> spawn_lazy(spawn_tag, priority, lazy<T> t) {
    co_return co_await std::move(t);
}

}  // namespace detail

/// Runs `t` as a new task of the pool (a worker may steal it); returns its future.
/// Awaiting that future on the worker that spawned it, before anyone stole the task,
/// runs the task inline.
template <class T>
future<T> spawn(priority p, lazy<T> t) {
    return detail::spawn_lazy(detail::spawn_tag{}, p, std::move(t));
}
template <class T>
future<T> spawn(lazy<T> t) {
    return detail::spawn_lazy(detail::spawn_tag{}, priority::normal, std::move(t));
}

}  // namespace loom
