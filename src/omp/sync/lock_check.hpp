// Misuse checks for locks, nest locks and critical sections.
//
// The OpenMP specification leaves misuse undefined (unsetting a lock that is not set,
// destroying a set lock, using an uninitialised lock, re-entering a critical section).
// loom never crashes or hangs on it where it can tell, and says what happened when
// checks are on: by default in debug builds (NDEBUG not defined); LOOM_CHECK_LOCKS=1
// turns them on in any build, LOOM_CHECK_LOCKS=0 off.
#pragma once

#include <atomic>

namespace loom::omp {

namespace detail {
/// -1 until decided, then 0 or 1 (constant-initialised: valid before any constructor).
extern std::atomic<int> lock_checks_state;
int decide_lock_checks() noexcept;
}  // namespace detail

/// True when misuse is reported (decided once, on first use). Inline: every lock
/// operation asks, so off it costs one load and a branch.
inline bool lock_checks_enabled() noexcept {
    int s = detail::lock_checks_state.load(std::memory_order_relaxed);
    if (s < 0) [[unlikely]]
        s = detail::decide_lock_checks();
    return s != 0;
}

/// True once checks were decided off: the inline fast paths of the lock operations
/// ask this alone (an undecided state takes the out-of-line path, which decides).
inline bool lock_checks_known_off() noexcept {
    return detail::lock_checks_state.load(std::memory_order_relaxed) == 0;
}

/// Prints one line "loom: <routine>: <what>" on stderr (async-signal-safe write, no
/// allocation). At most 20 reports per process; the 20th says that more are dropped.
void report_lock_misuse(const char* routine, const char* what) noexcept;

}  // namespace loom::omp
