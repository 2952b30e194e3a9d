// loom::counting_semaphore / binary_semaphore: std semantics, try_acquire_for and
// try_acquire_until included; acquire() parks a task (blocks a thread outside the
// pool). Units released while tasks wait are handed to them directly in FIFO order.
// Protocol: the comment in src/api/sync.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "loom/detail/config.hpp"
#include "loom/detail/deadline.hpp"
#include "loom/detail/wait_queue.hpp"
#include "loom/ext/export.hpp"

namespace loom {

namespace detail {

class LOOM_EXPORT semaphore_base {
public:
    explicit semaphore_base(std::ptrdiff_t desired) noexcept
        : word_(static_cast<std::uint64_t>(desired) << count_shift) {}
    semaphore_base(const semaphore_base&) = delete;
    semaphore_base& operator=(const semaphore_base&) = delete;

    void release(std::ptrdiff_t update = 1) noexcept {
        std::uint64_t w = word_.load(std::memory_order_relaxed);
        if ((w & (guard_bit | waiters_bit)) == 0 &&
            word_.compare_exchange_strong(w, w + (static_cast<std::uint64_t>(update) << count_shift),
                                          std::memory_order_release, std::memory_order_relaxed)) {
            return;
        }
        release_slow(update);
    }
    void acquire() noexcept {
        if (!try_acquire()) acquire_slow();
    }
    bool try_acquire() noexcept {
        std::uint64_t w = word_.load(std::memory_order_relaxed);
        while ((w >> count_shift) > 0) {
            if (word_.compare_exchange_weak(w, w - (std::uint64_t{1} << count_shift),
                                            std::memory_order_acquire, std::memory_order_relaxed)) {
                return true;
            }
        }
        return false;
    }
    /// Acquires a unit if one comes before `d` has passed (steady_clock); a zero or
    /// negative `d` only tries.
    template <class Rep, class Period>
    bool try_acquire_for(const std::chrono::duration<Rep, Period>& d) {
        return try_acquire() || acquire_slow_until(deadline_after(d));
    }
    /// Acquires a unit if one comes before `t` has passed on its clock.
    template <class Clock, class Duration>
    bool try_acquire_until(const std::chrono::time_point<Clock, Duration>& t) {
        return try_acquire() ||
               wait_until_clock(t, [this](steady_time due) { return try_acquire() || acquire_slow_until(due); });
    }

protected:
    ~semaphore_base() = default;

private:
    // One word: count << 2 | waiters_bit | guard_bit, so that the last access of
    // release() is one atomic operation (see mutex.hpp).
    static constexpr std::uint64_t guard_bit = 1;
    static constexpr std::uint64_t waiters_bit = 2;
    static constexpr unsigned count_shift = 2;

    void acquire_slow() noexcept;
    bool acquire_slow_until(steady_time deadline) noexcept;
    void release_slow(std::ptrdiff_t update) noexcept;

    std::atomic<std::uint64_t> word_;
    wait_queue queue_;  // guarded by guard_bit
};

}  // namespace detail

template <std::ptrdiff_t LeastMaxValue = (std::numeric_limits<std::ptrdiff_t>::max() >> 3)>
class counting_semaphore : public detail::semaphore_base {
    static_assert(LeastMaxValue >= 0);

public:
    static constexpr std::ptrdiff_t max() noexcept { return LeastMaxValue; }

    explicit counting_semaphore(std::ptrdiff_t desired) noexcept : semaphore_base(desired) {
        LOOM_CHECK_USAGE(desired >= 0 && desired <= max(), "loom::counting_semaphore: initial count out of range");
    }
    void release(std::ptrdiff_t update = 1) noexcept {
        LOOM_CHECK_USAGE(update >= 0, "loom::counting_semaphore::release: negative update");
        semaphore_base::release(update);
    }
};

using binary_semaphore = counting_semaphore<1>;

}  // namespace loom
