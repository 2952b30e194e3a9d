// co_await on a future or a shared_future. A ready state is read at once (await_ready:
// one acquire load, no suspension). Otherwise the producing task runs inline when it is
// still on top of this worker's deque (as a waiting get() does), and if the state is
// still not ready the coroutine suspends: its resumption task (coro_resume.hpp) is
// registered as a continuation of the state and submitted by whoever makes it ready.
#pragma once

#include <coroutine>
#include <type_traits>
#include <utility>

#include "loom/detail/coro_resume.hpp"
#include "loom/detail/shared_state.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

/// How an awaiter holds its state and what it gives back.
enum class await_mode {
    take,         // a future: owns the reference, moves the value out
    shared_ref,   // an lvalue shared_future: returns a reference into the state
    shared_copy,  // an rvalue shared_future: owns the reference, returns a copy
};

template <class T, await_mode M>
class future_awaiter {
    // An lvalue shared_future's awaiter borrows the caller's reference while it needs
    // none of its own, and takes one before it suspends (the caller's shared_future
    // may be gone by the time the coroutine is resumed).
    static constexpr bool owns_from_start = M != await_mode::shared_ref;

public:
    explicit future_awaiter(shared_state<T>* st) noexcept : st_(st) {}
    future_awaiter(const future_awaiter&) = delete;
    future_awaiter& operator=(const future_awaiter&) = delete;
    ~future_awaiter() {
        if (owns()) st_->release();
    }

    [[nodiscard]] bool await_ready() const noexcept { return st_->is_ready(); }

    template <class P>
    bool await_suspend(std::coroutine_handle<P> h) {
        if constexpr (!owns_from_start) {
            if (!borrowed_.owns) {
                st_->add_ref();
                borrowed_.owns = true;
            }
        }
        // `producer` may be stale, but never on top of this deque then: see
        // state_base::wait() in src/api/future.cpp.
        if (st_->producer != nullptr) ext::run_if_on_top(st_->producer);
        if (st_->is_ready()) return false;
        // Registered, the task runs when the state is set; if that happened since the
        // check above, add_continuation submits it at once. Either way the coroutine
        // may run elsewhere from here on (and this awaiter, in its frame, be gone):
        // nothing is touched after the call.
        st_->add_continuation(resumption_task(h));
        return true;
    }

    decltype(auto) await_resume() {
        st_->rethrow_if_exception();
        if constexpr (std::is_void_v<T>) {
            return;
        } else if constexpr (std::is_reference_v<T>) {
            return static_cast<T>(st_->value());
        } else if constexpr (M == await_mode::take) {
            return T(std::move(st_->value()));
        } else if constexpr (M == await_mode::shared_copy && std::is_copy_constructible_v<T>) {
            return T(static_cast<const T&>(st_->value()));
        } else {
            return static_cast<const T&>(st_->value());
        }
    }

private:
    // Only the borrowing mode keeps a flag: a future's awaiter stays one pointer wide,
    // which keeps the coroutine frames that hold it within a 128-byte task record.
    struct ownership {
        bool owns = false;
    };
    struct always_owned {};

    [[nodiscard]] bool owns() const noexcept {
        if constexpr (owns_from_start) {
            return true;
        } else {
            return borrowed_.owns;
        }
    }

    shared_state<T>* st_;
    [[no_unique_address]] std::conditional_t<owns_from_start, always_owned, ownership> borrowed_;
};

}  // namespace loom::detail
