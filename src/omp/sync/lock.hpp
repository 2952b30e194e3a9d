// OpenMP locks: omp_lock_t and omp_nest_lock_t, their hints, and the operations that
// the omp_* routines and clang's __kmpc_* lock entry points (same objects, reached
// through void**) share.
//
// ABI decision. clang's omp.h declares both lock types as `struct { void *_lk; }`
// (8 bytes); gcc's omp.h (GOMP ABI, which libloom-omp will also serve) declares
// omp_lock_t as 4 bytes and omp_nest_lock_t as 16 bytes. So:
//  - a simple lock IS its first four bytes: a lock_word (futex mutex) kept in place, no
//    allocation, no indirection, and it fits both ABIs; a zero-filled lock is a valid
//    free lock, so programs that forget omp_init_lock on a static lock still work;
//  - a nest lock needs an owner and a depth as well, which do not fit 4 bytes of the
//    clang object beside the word, so its first eight bytes hold a pointer to a
//    heap object (nest_lock below), installed by init (or lazily, by CAS, on first use
//    of a zero-filled object) and freed by destroy.
#pragma once

#include <atomic>
#include <cstdint>

#include "sync/lock_check.hpp"
#include "sync/lock_word.hpp"

namespace loom::omp {

/// omp_sync_hint_t / omp_lock_hint_t values (OpenMP 5.2, table 2.x; libomp's omp.h).
enum : std::uintptr_t {
    sync_hint_none = 0,
    sync_hint_uncontended = 1,
    sync_hint_contended = 2,
    sync_hint_nonspeculative = 4,
    sync_hint_speculative = 8,
    kmp_lock_hint_hle = 1u << 16,
    kmp_lock_hint_rtm = 1u << 17,
    kmp_lock_hint_adaptive = 1u << 18,
};

/// Maps a hint to the waiting policy. Every valid combination is accepted; speculative
/// hints run as ordinary locks (no transactional memory is used). An invalid
/// combination (contended with uncontended, speculative with nonspeculative, unknown
/// bits) is reported when checks are on and treated as no hint. `routine` names the
/// caller in that report.
spin_class spin_class_for_hint(std::uintptr_t hint, const char* routine) noexcept;

/// Identity of the OpenMP task that owns a nest lock (and, when checks are on, a simple
/// lock or a critical section); never 0.
/// HOOK: for now the calling OS thread. Once explicit tasks can be suspended and resumed
/// on another thread (untied tasks), this must return the current OpenMP task: the
/// specification makes tasks, not threads, the owners of locks. Not inlined: after a
/// suspension point the caller may run on another thread, so the answer is never cached.
[[gnu::noinline]] std::uintptr_t current_owner_id() noexcept;

/// The object a nest lock points to. One cache line, so two nest locks never share one.
struct alignas(64) nest_lock {
    static constexpr std::uint32_t live_magic = 0x4e455354u;  // "NEST"
    std::uint32_t word = 0;                  // lock_word: held while depth > 0
    std::uint32_t depth = 0;                 // touched only by the owner
    std::atomic<std::uintptr_t> owner{0};    // current_owner_id() of the holder, 0 if free
    std::uint32_t magic = live_magic;
};

// ---- operations on the user's lock object `lk` (either ABI's omp_lock_t /
// omp_nest_lock_t, or the void* clang's __kmpc_* forms pass). `routine` names the
// caller in misuse reports (lock_check.hpp).

void simple_lock_init(void* lk, std::uintptr_t hint, const char* routine) noexcept;
void simple_lock_destroy(void* lk, const char* routine) noexcept;
/// set / unset with misuse checks, or where the inline fast path below does not apply
/// (a contended or hinted word, a zero or destroyed one).
void simple_lock_set_slow(void* lk, const char* routine) noexcept;
void simple_lock_unset_slow(void* lk, const char* routine) noexcept;
/// Inline: without checks a free lock costs one CAS and a set one an exchange, as
/// libgomp's, with no call frame (the checked path's saved registers made the out-of-
/// line set/unset pair 51 instructions dearer than libgomp's, callgrind).
inline void simple_lock_set(void* lk, const char* routine) noexcept {
    if (lock_checks_known_off() && lock_word(*static_cast<std::uint32_t*>(lk)).lock_fast()) [[likely]]
        return;
    simple_lock_set_slow(lk, routine);
}
inline void simple_lock_unset(void* lk, const char* routine) noexcept {
    if (lock_checks_known_off() && lock_word(*static_cast<std::uint32_t*>(lk)).unlock_fast()) [[likely]]
        return;
    simple_lock_unset_slow(lk, routine);
}
/// 1 if the lock was taken, else 0.
int simple_lock_test(void* lk, const char* routine) noexcept;

void nest_lock_init(void* lk, std::uintptr_t hint, const char* routine);
void nest_lock_destroy(void* lk, const char* routine) noexcept;
/// The new nesting depth.
int nest_lock_set(void* lk, const char* routine);
/// The remaining depth (0: released), or -1 if the call was ignored (not the owner).
int nest_lock_unset(void* lk, const char* routine);
/// The new nesting depth, or 0 if another task holds the lock.
int nest_lock_test(void* lk, const char* routine);
/// The same with the owner given: libgomp's OpenMP 3.0 nest locks belong to the task
/// (gomp/nest_lock.cpp), libomp's and OpenMP 2.5's to the thread (current_owner_id).
int nest_lock_set(void* lk, const char* routine, std::uintptr_t owner);
int nest_lock_unset(void* lk, const char* routine, std::uintptr_t owner);
int nest_lock_test(void* lk, const char* routine, std::uintptr_t owner);

}  // namespace loom::omp
