// Critical sections: first use and the checked paths (see critical.hpp).
#include "sync/critical.hpp"

#include "ompt/events.hpp"
#include "ompt/ompt.hpp"
#include "sync/lock.hpp"
#include "sync/lock_check.hpp"
#include "sync/lock_word.hpp"

namespace loom::omp {

static_assert(sizeof(kmp_critical_name) == 32, "kmp_critical_name is 32 bytes");
static_assert(sizeof(void*) <= sizeof(kmp_critical_name));

critical_lock* install_critical_lock(void** slot, std::uintptr_t hint) noexcept {
    std::atomic_ref<void*> ref(*slot);
    void* p = nullptr;
    auto* fresh = new critical_lock;
    lock_word(fresh->word).init(spin_class_for_hint(hint, "omp critical"));
    if (ref.compare_exchange_strong(p, fresh, std::memory_order_acq_rel,
                                    std::memory_order_acquire))
        return fresh;
    delete fresh;  // another thread installed the lock first
    return static_cast<critical_lock*>(p);
}

void critical_enter_checked(critical_lock* c, const char* routine) noexcept {
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

void critical_exit_checked(void* p, const char* routine) noexcept {
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

void critical_enter_reported(void** slot, std::uintptr_t hint, const char* routine, const void* ra) noexcept {
    const auto id = reinterpret_cast<std::uintptr_t>(slot);
    LOOM_OMPT_EVENT(mutex_acquire(ompt_mutex_critical, static_cast<unsigned>(hint), id, ra));
    critical_enter(slot, hint & 0xffffffffu, routine);
    LOOM_OMPT_EVENT(mutex_acquired(ompt_mutex_critical, id, ra));
}

void critical_exit_reported(void** slot, const char* routine, const void* ra) noexcept {
    critical_exit(slot, routine);
    LOOM_OMPT_EVENT(mutex_released(ompt_mutex_critical, reinterpret_cast<std::uintptr_t>(slot), ra));
}

}  // namespace loom::omp
