// Resuming coroutines in a loop instead of on top of each other (symmetric transfer by
// hand). When a lazy coroutine starts its child, or finishes and continues its parent,
// it does not resume the other coroutine from inside its own await_suspend, which would
// put one more frame on the stack per level of a chain: it names the other as the next
// step of the loop that resumed it (coro_driver) and suspends; the loop resumes that
// one. The stack therefore stays as deep as one step, however deep the chain.
//
// Returning the next coroutine's handle from await_suspend means the same, but leaves
// the loop to the compiler as a tail call, and gcc 12 makes it one only when optimising
// without sanitizers: a 10^5-deep chain of awaits overflowed a 1 MiB stack at -O0 and
// under -fsanitize=address and -fsanitize=thread. This loop needs no tail call.
//
// Invariant: a driven promise's `driver` (lazy's, see lazy.hpp) names the loop that
// resumed its coroutine, and is valid while that coroutine runs. Every loop sets it
// before it resumes such a coroutine; a coroutine that goes on without being resumed
// (an await_suspend that returned false) goes on in the context it was in, whose driver
// is still right. Coroutines of other promise types (loom's eager ones included) have
// no driver: a lazy they await runs in a loop of its own, which ends when the lazy comes
// back to them. A loop object lives on the stack of whoever runs it, so a fiber that
// parks with a loop on it keeps it.
#pragma once

#include <coroutine>
#include <type_traits>

namespace loom::detail {

class coro_driver;

/// Base of the promise types whose coroutines hand over to each other through a loop.
struct driven_promise {
    coro_driver* driver = nullptr;
};

/// A coroutine to resume, with its promise when that is a driven one (else null: the
/// coroutine is simply resumed).
struct coro_step {
    std::coroutine_handle<> handle;
    driven_promise* promise = nullptr;
};

template <class P>
coro_step step_of(std::coroutine_handle<P> h) noexcept {
    if constexpr (std::is_base_of_v<driven_promise, P>) {
        return {h, &h.promise()};
    } else {
        return {h, nullptr};
    }
}

class coro_driver {
public:
    coro_driver() = default;
    coro_driver(const coro_driver&) = delete;
    coro_driver& operator=(const coro_driver&) = delete;

    /// Resumes `first`, then every coroutine that the resumed one names next, until one
    /// suspends without naming a successor (returns false) or names `stop`, which is
    /// then not resumed (returns true).
    bool run(coro_step first, std::coroutine_handle<> stop = {}) noexcept {
        coro_step s = first;
        for (;;) {
            if (s.promise != nullptr) s.promise->driver = this;
            next_ = {};
            s.handle.resume();
            // Only a coroutine running under this loop writes next_, before it suspends:
            // one that was resumed elsewhere meanwhile got another loop as its driver
            // before it ran (the scheduler's hand-off orders that write).
            s = next_;
            if (!s.handle) return false;
            if (s.handle == stop) return true;
        }
    }

    /// Called by the coroutine running under this loop, just before it suspends.
    void hand_over(coro_step next) noexcept { next_ = next; }

private:
    coro_step next_;
};

/// Passes control from `from`, which is suspending (in an await_suspend), to `to`:
/// through the loop that runs `from` when there is one, else in a loop run here that
/// ends when the chain comes back to `from`. Returns await_suspend's answer: true when
/// `from` stays suspended, false when the chain came back and `from` goes on at once.
template <class P>
bool transfer(std::coroutine_handle<P> from, coro_step to) noexcept {
    if constexpr (std::is_base_of_v<driven_promise, P>) {
        if (coro_driver* d = from.promise().driver) {
            d->hand_over(to);
            return true;
        }
    }
    coro_driver here;
    return !here.run(to, from);
}

}  // namespace loom::detail
