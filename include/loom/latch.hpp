// loom::latch: std::latch for tasks, plus timed waits (wait_for / wait_until, true
// once the counter reached zero). A waiting task is parked (its worker runs other
// work); a thread outside the pool blocks. Built on the lock-free one-shot event of
// the futures (detail/event.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <limits>

#include "loom/detail/config.hpp"
#include "loom/detail/deadline.hpp"
#include "loom/detail/event.hpp"

namespace loom {

class latch {
public:
    static constexpr std::ptrdiff_t max() noexcept { return std::numeric_limits<std::ptrdiff_t>::max(); }

    explicit latch(std::ptrdiff_t expected) noexcept : count_(expected) {
        LOOM_CHECK_USAGE(expected >= 0, "loom::latch: negative expected count");
        if (expected == 0) done_.set();
    }
    latch(const latch&) = delete;
    latch& operator=(const latch&) = delete;
    ~latch() = default;

    void count_down(std::ptrdiff_t n = 1) noexcept {
        const std::ptrdiff_t old = count_.fetch_sub(n, std::memory_order_acq_rel);
        LOOM_CHECK_USAGE(n >= 0 && old >= n, "loom::latch::count_down: counted below zero");
        // The event, not the counter, says "released": once set() has run nothing of
        // the latch is touched any more, so a waiter may destroy it right away.
        if (old == n) done_.set();
    }
    [[nodiscard]] bool try_wait() const noexcept { return done_.is_set(); }
    void wait() const noexcept {
        if (!done_.is_set()) done_.wait();
    }
    /// Waits until the counter reaches zero, at most until `d` has passed
    /// (steady_clock): true if it did. A zero or negative `d` is try_wait().
    template <class Rep, class Period>
    bool wait_for(const std::chrono::duration<Rep, Period>& d) const {
        return done_.is_set() || done_.wait_until(detail::deadline_after(d));
    }
    /// As wait_for, until `t` has passed on its clock.
    template <class Clock, class Duration>
    bool wait_until(const std::chrono::time_point<Clock, Duration>& t) const {
        return done_.is_set() ||
               detail::wait_until_clock(t, [this](detail::steady_time due) { return done_.wait_until(due); });
    }
    void arrive_and_wait(std::ptrdiff_t n = 1) noexcept {
        count_down(n);
        wait();
    }

private:
    std::atomic<std::ptrdiff_t> count_;
    mutable detail::event done_;
};

}  // namespace loom
