// Critical sections: __kmpc_critical, __kmpc_critical_with_hint, __kmpc_end_critical.
//
// clang gives every critical name (and the unnamed one, and each reduction that uses the
// critical method) one `kmp_critical_name`: a 32-byte, zero-initialised global of common
// linkage, so every object file and shared library of the program sees the same one.
// Its first eight bytes hold a pointer to a critical_lock, installed lazily by CAS on
// first use (losers of the race free theirs); the lock lives until the process ends.
// The lock object has its own cache line, so two critical names that the linker put
// side by side do not share one.
//
// The same slot protocol serves any pointer-sized slot (GOMP_critical_name_start passes
// a void**), so the GOMP layer can call critical_enter / critical_exit directly.
//
// Entering and leaving are inline: one load of the slot, the checks flag and the lock
// word's CAS, so the entry points of both compilers pay no call of their own; the
// checked forms and the first use are out of line (critical.cpp).
#pragma once

#include <atomic>
#include <cstdint>

#include "ompt/ompt.hpp"
#include "sync/lock_check.hpp"
#include "sync/lock_word.hpp"

namespace loom::omp {

/// kmp_critical_name (kmp.h: typedef kmp_int32 kmp_critical_name[8]).
using kmp_critical_name = std::int32_t[8];

struct alignas(64) critical_lock {
    std::uint32_t word = 0;                 // lock_word
    std::uint32_t depth = 0;                // only with checks: re-entries by the owner
    std::atomic<std::uintptr_t> owner{0};   // only with checks: current_owner_id()
};

/// Installs the lock of a slot still empty (or returns the one another thread installed).
critical_lock* install_critical_lock(void** slot, std::uintptr_t hint) noexcept;
/// Entering and leaving with misuse checks on (lock_check.hpp); `p` is the slot's
/// content, null if the section was never entered.
void critical_enter_checked(critical_lock* c, const char* routine) noexcept;
void critical_exit_checked(void* p, const char* routine) noexcept;

/// The lock behind `slot`, installed on first use with the waiting policy of `hint`
/// (an omp_sync_hint_t value; the first user's hint decides).
inline critical_lock* critical_lock_of(void** slot, std::uintptr_t hint) noexcept {
    void* p = std::atomic_ref<void*>(*slot).load(std::memory_order_acquire);
    if (p != nullptr) [[likely]] return static_cast<critical_lock*>(p);
    return install_critical_lock(slot, hint);
}

/// The entry points' fast paths, tried before anything else: no tool active, an
/// installed lock, checks off, a free unhinted word taken by one CAS (or a held one
/// freed by one exchange). False: nothing was done, and the entry point takes its full
/// path (critical_enter_reported). Kept apart so that the fast path needs no call frame
/// (saved registers for the full path cost GOMP_critical_start 22 instructions more
/// than libgomp's, callgrind).
inline bool critical_try_enter_fast(void** slot) noexcept {
    if (ompt::on()) return false;
    void* p = std::atomic_ref<void*>(*slot).load(std::memory_order_acquire);
    return p != nullptr && lock_checks_known_off() &&
           lock_word(static_cast<critical_lock*>(p)->word).lock_fast();
}
inline bool critical_try_exit_fast(void** slot) noexcept {
    if (ompt::on()) return false;
    void* p = std::atomic_ref<void*>(*slot).load(std::memory_order_acquire);
    return p != nullptr && lock_checks_known_off() &&
           lock_word(static_cast<critical_lock*>(p)->word).unlock_fast();
}
/// The full paths, out of line: critical_enter / critical_exit between a tool's events
/// (mutex_acquire with `hint` and mutex_acquired, or mutex_released; wait id = the
/// slot's address, codeptr_ra = `ra`, the entry point's caller).
void critical_enter_reported(void** slot, std::uintptr_t hint, const char* routine, const void* ra) noexcept;
void critical_exit_reported(void** slot, const char* routine, const void* ra) noexcept;

/// Enters / leaves the critical section named by `slot`. `routine` names the caller in
/// misuse reports.
inline void critical_enter(void** slot, std::uintptr_t hint, const char* routine) noexcept {
    critical_lock* c = critical_lock_of(slot, hint);
    if (!lock_checks_enabled()) [[likely]] {
        lock_word(c->word).lock();
        return;
    }
    critical_enter_checked(c, routine);
}
inline void critical_exit(void** slot, const char* routine) noexcept {
    void* p = std::atomic_ref<void*>(*slot).load(std::memory_order_acquire);
    if (p == nullptr || lock_checks_enabled()) [[unlikely]] {
        critical_exit_checked(p, routine);
        return;
    }
    (void)lock_word(static_cast<critical_lock*>(p)->word).unlock();
}

}  // namespace loom::omp
