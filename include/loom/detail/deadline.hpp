// Deadlines of the timed waits: a duration, or a time point of any clock, turned into
// the steady_clock deadline the scheduler serves (ext::wait_slot::wait_until).
//
// Durations count on steady_clock, as the standard asks of every wait_for. A time point
// of another clock (system_clock, a user's clock) is converted as "now on steady_clock
// plus what is left on that clock"; since that clock may be set back or run at another
// rate, the waits that promise "not before t" (futures, semaphores, mutexes, latch,
// barrier) check that clock again when the steady deadline passes and go on waiting
// while it is early (wait_until_clock).
#pragma once

#include <chrono>
#include <type_traits>

namespace loom::detail {

using steady_time = std::chrono::steady_clock::time_point;

/// A wait longer than this (about 95 years) is a wait without deadline: it saturates
/// at steady_time::max() instead of overflowing (wait_for(duration::max())).
inline constexpr double unbounded_wait_seconds = 3.0e9;

/// The steady deadline `d` from now, rounded up so that a wait never ends before `d`
/// has passed. Zero, negative (and NaN) durations give now: a ready check.
template <class Rep, class Period>
steady_time deadline_after(const std::chrono::duration<Rep, Period>& d) noexcept {
    const steady_time now = std::chrono::steady_clock::now();
    if (!(d > d.zero())) return now;
    // In floating point, which cannot overflow whatever Rep and Period are.
    if (std::chrono::duration<double>(d).count() > unbounded_wait_seconds) return steady_time::max();
    return now + std::chrono::ceil<std::chrono::steady_clock::duration>(d);
}

/// The steady deadline of `t`. time_point::max() means no deadline; min() is past.
template <class Clock, class Duration>
steady_time deadline_at(const std::chrono::time_point<Clock, Duration>& t) {
    using point = std::chrono::time_point<Clock, Duration>;
    if (t == point::max()) return steady_time::max();
    if (t == point::min()) return std::chrono::steady_clock::now();
    if constexpr (std::is_same_v<Clock, std::chrono::steady_clock>) {
        if (std::chrono::duration<double>(t.time_since_epoch()).count() > unbounded_wait_seconds)
            return steady_time::max();
        return std::chrono::ceil<std::chrono::steady_clock::duration>(t);
    } else {
        return deadline_after(t - Clock::now());
    }
}

/// Runs `wait(steady_time) -> bool` (true: the wait ended satisfied) until it returns
/// true, or until `t` has passed on its own clock; returns what the last wait returned.
template <class Clock, class Duration, class Wait>
bool wait_until_clock(const std::chrono::time_point<Clock, Duration>& t, Wait&& wait) {
    for (;;) {
        if (wait(deadline_at(t))) return true;
        if constexpr (std::is_same_v<Clock, std::chrono::steady_clock>) {
            return false;  // the steady deadline is t, rounded up
        } else {
            if (Clock::now() >= t) return false;
        }
    }
}

}  // namespace loom::detail
