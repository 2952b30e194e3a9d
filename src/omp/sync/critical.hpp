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
#pragma once

#include <atomic>
#include <cstdint>

namespace loom::omp {

/// kmp_critical_name (kmp.h: typedef kmp_int32 kmp_critical_name[8]).
using kmp_critical_name = std::int32_t[8];

struct alignas(64) critical_lock {
    std::uint32_t word = 0;                 // lock_word
    std::uint32_t depth = 0;                // only with checks: re-entries by the owner
    std::atomic<std::uintptr_t> owner{0};   // only with checks: current_owner_id()
};

/// The lock behind `slot`, installed on first use with the waiting policy of `hint`
/// (an omp_sync_hint_t value; the first user's hint decides).
critical_lock* critical_lock_of(void** slot, std::uintptr_t hint) noexcept;

/// Enters / leaves the critical section named by `slot`. `routine` names the caller in
/// misuse reports.
void critical_enter(void** slot, std::uintptr_t hint, const char* routine) noexcept;
void critical_exit(void** slot, const char* routine) noexcept;

}  // namespace loom::omp
