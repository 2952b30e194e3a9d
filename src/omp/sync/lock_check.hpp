// Misuse checks for locks, nest locks and critical sections.
//
// The OpenMP specification leaves misuse undefined (unsetting a lock that is not set,
// destroying a set lock, using an uninitialised lock, re-entering a critical section).
// loom never crashes or hangs on it where it can tell, and says what happened when
// checks are on: by default in debug builds (NDEBUG not defined); LOOM_CHECK_LOCKS=1
// turns them on in any build, LOOM_CHECK_LOCKS=0 off.
#pragma once

namespace loom::omp {

/// True when misuse is reported (decided once, on first use).
bool lock_checks_enabled() noexcept;

/// Prints one line "loom: <routine>: <what>" on stderr (async-signal-safe write, no
/// allocation). At most 20 reports per process; the 20th says that more are dropped.
void report_lock_misuse(const char* routine, const char* what) noexcept;

}  // namespace loom::omp
