// Misuse checks for locks, nest locks and critical sections.
//
// The OpenMP specification leaves misuse undefined (unsetting a lock that is not set,
// destroying a set lock, using an uninitialised lock, re-entering a critical section).
// loom never crashes or hangs on it where it can tell, and says what happened when
// checks are on: by default in debug builds (NDEBUG not defined); LOOM_CHECK_LOCKS=1
// turns them on in any build, LOOM_CHECK_LOCKS=0 off.
#pragma once

#include <cstdint>

namespace loom::omp {

/// True when misuse is reported (decided once, on first use).
bool lock_checks_enabled() noexcept;

/// Prints one line "loom: <routine>: <what>" on stderr (async-signal-safe write, no
/// allocation). At most 20 reports per process; the 20th says that more are dropped.
void report_lock_misuse(const char* routine, const char* what) noexcept;

/// Identity of the OpenMP task that owns a nest lock or a critical section.
/// HOOK: for now the calling OS thread. When explicit tasks can migrate between
/// threads this must return the current OpenMP task (task-level ownership is what the
/// specification asks for nest locks). Not inlined: after a suspension point the
/// caller may run on another thread, so the answer must never be cached.
[[gnu::noinline]] std::uintptr_t current_owner_id() noexcept;

}  // namespace loom::omp
