// Critical sections (see critical.hpp).
#include "sync/critical.hpp"

#include "sync/lock.hpp"
#include "sync/lock_check.hpp"
#include "sync/lock_word.hpp"

#define LOOM_OMP_ABI extern "C" __attribute__((visibility("default")))

namespace loom::omp {

static_assert(sizeof(kmp_critical_name) == 32, "kmp_critical_name is 32 bytes");
static_assert(sizeof(void*) <= sizeof(kmp_critical_name));

critical_lock* critical_lock_of(void** slot, std::uintptr_t hint) noexcept {
    std::atomic_ref<void*> ref(*slot);
    void* p = ref.load(std::memory_order_acquire);
    if (p != nullptr) [[likely]] return static_cast<critical_lock*>(p);
    auto* fresh = new critical_lock;
    lock_word(fresh->word).init(spin_class_for_hint(hint, "omp critical"));
    if (ref.compare_exchange_strong(p, fresh, std::memory_order_acq_rel,
                                    std::memory_order_acquire))
        return fresh;
    delete fresh;  // another thread installed the lock first
    return static_cast<critical_lock*>(p);
}

void critical_enter(void** slot, std::uintptr_t hint, const char* routine) noexcept {
    critical_lock* c = critical_lock_of(slot, hint);
    if (!lock_checks_enabled()) [[likely]] {
        lock_word(c->word).lock();
        return;
    }
    const std::uintptr_t me = current_owner_id();
    if (c->owner.load(std::memory_order_relaxed) == me) {
        // Entering a critical section from inside itself would deadlock. With checks
        // on, say so and let the task through (the matching exit undoes it).
        report_lock_misuse(routine, "this task is already inside this critical section "
                                    "(it would deadlock); it is let through");
        ++c->depth;
        return;
    }
    lock_word(c->word).lock();
    c->owner.store(me, std::memory_order_relaxed);
    c->depth = 1;
}

void critical_exit(void** slot, const char* routine) noexcept {
    void* p = std::atomic_ref<void*>(*slot).load(std::memory_order_acquire);
    if (p == nullptr) {
        if (lock_checks_enabled())
            report_lock_misuse(routine, "leaving a critical section that was never entered; ignored");
        return;
    }
    auto* c = static_cast<critical_lock*>(p);
    if (lock_checks_enabled()) {
        const std::uintptr_t owner = c->owner.load(std::memory_order_relaxed);
        if (owner != current_owner_id()) {
            report_lock_misuse(routine, owner == 0
                                            ? "leaving a critical section that is not entered; ignored"
                                            : "leaving a critical section entered by another task; ignored");
            return;
        }
        if (--c->depth != 0) return;
        c->owner.store(0, std::memory_order_relaxed);
    }
    if (!lock_word(c->word).unlock() && lock_checks_enabled())
        report_lock_misuse(routine, "leaving a critical section that is not entered; ignored");
}

}  // namespace loom::omp

namespace lo = loom::omp;
struct ident;  // ident_t: source location, unused here

// void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
LOOM_OMP_ABI void __kmpc_critical(ident*, std::int32_t, lo::kmp_critical_name* crit) {
    lo::critical_enter(reinterpret_cast<void**>(crit), lo::sync_hint_none, "__kmpc_critical");
}
// void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit,
//                                uintptr_t hint)   (clang passes the hint as intptr)
LOOM_OMP_ABI void __kmpc_critical_with_hint(ident*, std::int32_t, lo::kmp_critical_name* crit,
                                            std::uintptr_t hint) {
    // libomp reads the hint as uint32_t: ignore whatever a caller leaves above bit 31.
    lo::critical_enter(reinterpret_cast<void**>(crit), hint & 0xffffffffu, "__kmpc_critical_with_hint");
}
// void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
LOOM_OMP_ABI void __kmpc_end_critical(ident*, std::int32_t, lo::kmp_critical_name* crit) {
    lo::critical_exit(reinterpret_cast<void**>(crit), "__kmpc_end_critical");
}
