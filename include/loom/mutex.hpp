// loom::mutex and loom::timed_mutex: mutexes whose lock() parks a waiting task (its
// worker runs other work) and blocks a thread outside the pool. mutex meets Lockable,
// timed_mutex TimedLockable (try_lock_for/try_lock_until), so std::lock_guard,
// std::unique_lock and std::scoped_lock work with both. Protocol: src/api/sync.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "loom/detail/deadline.hpp"
#include "loom/detail/wait_queue.hpp"
#include "loom/ext/export.hpp"

namespace loom {

class timed_mutex;

class LOOM_EXPORT mutex {
public:
    constexpr mutex() noexcept = default;
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;
    ~mutex() = default;

    void lock() noexcept {
        std::uint32_t w = 0;
        if (!word_.compare_exchange_strong(w, locked_bit, std::memory_order_acquire,
                                           std::memory_order_relaxed)) {
            lock_slow();
        }
    }
    bool try_lock() noexcept {
        std::uint32_t w = 0;
        return word_.compare_exchange_strong(w, locked_bit, std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }
    void unlock() noexcept {
        std::uint32_t w = locked_bit;
        if (!word_.compare_exchange_strong(w, 0, std::memory_order_release,
                                           std::memory_order_relaxed)) {
            unlock_slow();
        }
    }

private:
    // One word holds the lock bit, the guard of the waiter queue, and whether the queue
    // is non-empty, so the last access of unlock() to the mutex is a single atomic
    // operation (the mutex may be destroyed by the next owner right after it).
    static constexpr std::uint32_t locked_bit = 1;
    static constexpr std::uint32_t guard_bit = 2;
    static constexpr std::uint32_t waiters_bit = 4;

    friend class timed_mutex;

    void lock_slow() noexcept;
    /// lock_slow() that gives up once `deadline` has passed: true if locked.
    bool lock_slow_until(detail::steady_time deadline) noexcept;
    void unlock_slow() noexcept;

    std::atomic<std::uint32_t> word_{0};
    detail::wait_queue queue_;  // guarded by guard_bit
};

/// A mutex with timed attempts (std::timed_mutex). A waiter whose deadline passes
/// leaves the wait queue; a waiter the lock was handed to just then keeps it.
class timed_mutex {
public:
    constexpr timed_mutex() noexcept = default;
    timed_mutex(const timed_mutex&) = delete;
    timed_mutex& operator=(const timed_mutex&) = delete;

    void lock() noexcept { m_.lock(); }
    bool try_lock() noexcept { return m_.try_lock(); }
    void unlock() noexcept { m_.unlock(); }

    /// Tries to lock until `d` has passed (steady_clock); a zero or negative `d` only tries.
    template <class Rep, class Period>
    bool try_lock_for(const std::chrono::duration<Rep, Period>& d) {
        return try_lock_steady(detail::deadline_after(d));
    }
    /// Tries to lock until `t` has passed on its clock.
    template <class Clock, class Duration>
    bool try_lock_until(const std::chrono::time_point<Clock, Duration>& t) {
        return detail::wait_until_clock(t, [this](detail::steady_time due) { return try_lock_steady(due); });
    }

private:
    bool try_lock_steady(detail::steady_time due) noexcept { return m_.try_lock() || m_.lock_slow_until(due); }

    mutex m_;
};

}  // namespace loom
