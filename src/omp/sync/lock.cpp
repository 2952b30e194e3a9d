// omp_*_lock / omp_*_nest_lock routines and the lock operations behind them (clang's
// __kmpc_* lock entry points, kmpc/locks.cpp, call the same ones).
// Design and ABI notes: lock.hpp (objects), lock_word.hpp (futex protocol),
// lock_check.hpp (misuse reports).
#include "sync/lock.hpp"

#include <mutex>
#include <new>
#include <unordered_map>

#include <pthread.h>

#include "gomp/version_alias.hpp"
#include "ompt/events.hpp"
#include "parallel/thread.hpp"
#include "sync/lock_check.hpp"

#define LOOM_OMP_ABI extern "C" __attribute__((visibility("default")))

namespace loom::omp {

namespace {

// ---- hints ---------------------------------------------------------------------------

constexpr std::uintptr_t known_hints = sync_hint_uncontended | sync_hint_contended |
                                       sync_hint_nonspeculative | sync_hint_speculative |
                                       kmp_lock_hint_hle | kmp_lock_hint_rtm |
                                       kmp_lock_hint_adaptive;

// ---- simple locks: the word is the first four bytes of the user's object ---------------

std::uint32_t& word_of(void* lk) noexcept { return *static_cast<std::uint32_t*>(lk); }

// Owner of each set simple lock, kept only while checks are on (the in-place word has no
// room for it). A leaked singleton so it also works from atexit handlers.
struct owner_table {
    std::mutex m;
    std::unordered_map<const void*, std::uintptr_t> owners;
};
owner_table& simple_owners() {
    static owner_table* t = new owner_table;
    return *t;
}
std::uintptr_t owner_of(const void* lk) {
    owner_table& t = simple_owners();
    std::lock_guard<std::mutex> g(t.m);
    auto it = t.owners.find(lk);
    return it == t.owners.end() ? 0 : it->second;
}
void set_owner(const void* lk, std::uintptr_t who) {
    owner_table& t = simple_owners();
    std::lock_guard<std::mutex> g(t.m);
    if (who == 0)
        t.owners.erase(lk);
    else
        t.owners[lk] = who;
}

void check_initialised(std::uint32_t w, const char* routine) noexcept {
    if ((w & lock_word::tag_mask) == lock_word::dead_tag)
        report_lock_misuse(routine, "the lock was destroyed; it is used as a free lock");
    else if (w == 0)
        report_lock_misuse(routine, "the lock was never initialised (all zero); it is used as a free lock");
    else if (!lock_word::valid(w))
        report_lock_misuse(routine, "the lock is not initialised; it is reset to a free lock");
}

}  // namespace

void simple_lock_init(void* lk, std::uintptr_t hint, const char* routine) noexcept {
    lock_word(word_of(lk)).init(spin_class_for_hint(hint, routine));
    if (lock_checks_enabled()) set_owner(lk, 0);
}

void simple_lock_destroy(void* lk, const char* routine) noexcept {
    lock_word w(word_of(lk));
    const std::uint32_t v = w.peek();
    if (lock_word::valid(v) && lock_word::held(v)) {
        // Another task may sleep on the word: leave it alone so that the holder's
        // unset still wakes it, rather than strand it.
        if (lock_checks_enabled())
            report_lock_misuse(routine, "destroying a lock that is set; the lock is left as it is");
        return;
    }
    if (lock_checks_enabled()) {
        check_initialised(v, routine);
        set_owner(lk, 0);
    }
    w.mark_destroyed();
}

void simple_lock_set_slow(void* lk, const char* routine) noexcept {
    lock_word w(word_of(lk));
    if (!lock_checks_enabled()) {
        w.lock();
        return;
    }
    const std::uint32_t v = w.peek();
    check_initialised(v, routine);
    if (!lock_word::valid(v)) lock_word(word_of(lk)).init(spin_class::normal);
    const std::uintptr_t me = current_owner_id();
    if (owner_of(lk) == me) {
        report_lock_misuse(routine, "the lock is already set by this task; setting it again "
                                    "would deadlock, so the call is ignored");
        return;
    }
    w.lock();
    set_owner(lk, me);
}

void simple_lock_unset_slow(void* lk, const char* routine) noexcept {
    lock_word w(word_of(lk));
    if (lock_checks_enabled()) {
        const std::uint32_t v = w.peek();
        if (!lock_word::valid(v) || !lock_word::held(v)) {
            report_lock_misuse(routine, "the lock is not set; the call is ignored");
            return;
        }
        if (owner_of(lk) != current_owner_id())
            report_lock_misuse(routine, "the lock is set by another task; it is unset anyway");
        set_owner(lk, 0);
    }
    (void)w.unlock();  // false = was not set: nothing to do
}

int simple_lock_test(void* lk, const char* routine) noexcept {
    lock_word w(word_of(lk));
    if (!lock_checks_enabled()) return w.try_lock() ? 1 : 0;
    const std::uint32_t v = w.peek();
    check_initialised(v, routine);
    if (!lock_word::valid(v)) lock_word(word_of(lk)).init(spin_class::normal);
    const std::uintptr_t me = current_owner_id();
    if (owner_of(lk) == me) {
        report_lock_misuse(routine, "the lock is already set by this task");
        return 0;
    }
    if (!w.try_lock()) return 0;
    set_owner(lk, me);
    return 1;
}

// ---- nest locks: the first eight bytes of the user's object point to a nest_lock ------

namespace {

std::atomic_ref<nest_lock*> slot_of(void* lk) noexcept {
    return std::atomic_ref<nest_lock*>(*static_cast<nest_lock**>(lk));
}

nest_lock* make_nest(std::uintptr_t hint, const char* routine) {
    auto* n = new nest_lock;
    lock_word(n->word).init(spin_class_for_hint(hint, routine));
    return n;
}

/// The nest lock behind `lk`; a zero-filled (never initialised, or destroyed) object
/// gets one installed by CAS, so concurrent first users agree on it.
nest_lock* nest_of(void* lk, const char* routine) {
    auto slot = slot_of(lk);
    nest_lock* n = slot.load(std::memory_order_acquire);
    if (n != nullptr) [[likely]] {
        if (lock_checks_enabled() && n->magic != nest_lock::live_magic)
            report_lock_misuse(routine, "the nest lock is not initialised or was destroyed");
        return n;
    }
    if (lock_checks_enabled())
        report_lock_misuse(routine, "the nest lock was never initialised or was destroyed; "
                                    "it is initialised now");
    nest_lock* fresh = make_nest(sync_hint_none, routine);
    if (slot.compare_exchange_strong(n, fresh, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
        return fresh;
    delete fresh;  // another thread installed one first: use that
    return n;
}

}  // namespace

void nest_lock_init(void* lk, std::uintptr_t hint, const char* routine) {
    slot_of(lk).store(make_nest(hint, routine), std::memory_order_release);
}

void nest_lock_destroy(void* lk, const char* routine) noexcept {
    auto slot = slot_of(lk);
    nest_lock* n = slot.load(std::memory_order_acquire);
    if (n == nullptr) {
        if (lock_checks_enabled())
            report_lock_misuse(routine, "the nest lock is not initialised");
        return;
    }
    // The acquire load of the word pairs with the last holder's releasing unlock, so
    // its accesses to the object happen-before the delete below.
    const std::uint32_t w = std::atomic_ref<std::uint32_t>(n->word).load(std::memory_order_acquire);
    if (lock_word::held(w) || n->owner.load(std::memory_order_acquire) != 0) {
        // A waiter may sleep on it: keep it alive (leak it) rather than free it under
        // that waiter's feet.
        if (lock_checks_enabled())
            report_lock_misuse(routine, "destroying a nest lock that is set; the lock is left as it is");
        return;
    }
    if (!slot.compare_exchange_strong(n, nullptr, std::memory_order_acq_rel)) return;
    n->magic = 0;
    delete n;
}

int nest_lock_set(void* lk, const char* routine) { return nest_lock_set(lk, routine, current_owner_id()); }

int nest_lock_set(void* lk, const char* routine, std::uintptr_t me) {
    nest_lock* n = nest_of(lk, routine);
    // Only this task can have stored `me`, so a match cannot be stale.
    if (n->owner.load(std::memory_order_relaxed) == me) return static_cast<int>(++n->depth);
    lock_word(n->word).lock();
    n->owner.store(me, std::memory_order_relaxed);
    n->depth = 1;
    return 1;
}

int nest_lock_unset(void* lk, const char* routine) { return nest_lock_unset(lk, routine, current_owner_id()); }

int nest_lock_unset(void* lk, const char* routine, std::uintptr_t me) {
    nest_lock* n = nest_of(lk, routine);
    const std::uintptr_t owner = n->owner.load(std::memory_order_relaxed);
    if (owner != me) {
        if (lock_checks_enabled())
            report_lock_misuse(routine, owner == 0
                                            ? "the nest lock is not set; the call is ignored"
                                            : "the nest lock is set by another task; the call is ignored");
        return -1;
    }
    const int depth = static_cast<int>(--n->depth);
    if (depth == 0) {
        n->owner.store(0, std::memory_order_relaxed);
        (void)lock_word(n->word).unlock();
    }
    return depth;
}

int nest_lock_test(void* lk, const char* routine) { return nest_lock_test(lk, routine, current_owner_id()); }

int nest_lock_test(void* lk, const char* routine, std::uintptr_t me) {
    nest_lock* n = nest_of(lk, routine);
    if (n->owner.load(std::memory_order_relaxed) == me) return static_cast<int>(++n->depth);
    if (!lock_word(n->word).try_lock()) return 0;
    n->owner.store(me, std::memory_order_relaxed);
    n->depth = 1;
    return 1;
}

std::uintptr_t current_owner_id() noexcept {
    // pthread_self() is one load from the thread pointer; unique among live threads.
    return static_cast<std::uintptr_t>(pthread_self());
}

spin_class spin_class_for_hint(std::uintptr_t hint, const char* routine) noexcept {
    const bool bad = (hint & ~known_hints) != 0 ||
                     ((hint & sync_hint_contended) && (hint & sync_hint_uncontended)) ||
                     ((hint & sync_hint_speculative) && (hint & sync_hint_nonspeculative));
    if (bad) {
        if (lock_checks_enabled())
            report_lock_misuse(routine, "invalid synchronization hint; omp_sync_hint_none is used");
        return spin_class::normal;
    }
    if (hint & sync_hint_contended) return spin_class::contended;
    if (hint & sync_hint_uncontended) return spin_class::uncontended;
    return spin_class::normal;
}

}  // namespace loom::omp

// ---- the omp_* routines (both ABIs) ------------------------------------------------------

namespace lo = loom::omp;

// The user's object, as clang's omp.h declares both lock types (8 bytes). Only its
// address is used, so gcc's 4-byte omp_lock_t / 16-byte omp_nest_lock_t work too.
struct loom_omp_lock_object { void* lk; };

// With a tool active each routine takes its twin of ompt/lock_events.cpp, which reports
// the lock's events with the routine's caller as codeptr_ra (LOOM_OMPT_TRACED).
namespace lt = loom::omp::ompt;
// Initialising a lock registers the thread, as any first call into libomp does: the
// tool (if any) starts then, so this lock's events and the tool's own queries work.
#define LOOM_LOCK_INIT_REGISTERS() (void)lo::this_thread_no_suspend()

LOOM_OMP_ABI void omp_init_lock(loom_omp_lock_object* l) {
    LOOM_LOCK_INIT_REGISTERS();
    LOOM_OMPT_TRACED(lock_init_traced(l, lo::sync_hint_none, false, "omp_init_lock", LOOM_OMPT_RA));
    lo::simple_lock_init(l, lo::sync_hint_none, "omp_init_lock");
}
LOOM_OMP_ABI void omp_init_lock_with_hint(loom_omp_lock_object* l, int hint) {
    LOOM_LOCK_INIT_REGISTERS();
    const auto h = static_cast<std::uintptr_t>(static_cast<unsigned>(hint));
    LOOM_OMPT_TRACED(lock_init_traced(l, h, false, "omp_init_lock_with_hint", LOOM_OMPT_RA));
    lo::simple_lock_init(l, h, "omp_init_lock_with_hint");
}
LOOM_OMP_ABI void omp_destroy_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(lock_destroy_traced(l, false, "omp_destroy_lock", LOOM_OMPT_RA));
    lo::simple_lock_destroy(l, "omp_destroy_lock");
}
LOOM_OMP_ABI void omp_set_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(lock_set_traced(l, "omp_set_lock", LOOM_OMPT_RA));
    lo::simple_lock_set(l, "omp_set_lock");
}
LOOM_OMP_ABI void omp_unset_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(lock_unset_traced(l, "omp_unset_lock", LOOM_OMPT_RA));
    lo::simple_lock_unset(l, "omp_unset_lock");
}
LOOM_OMP_ABI int omp_test_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(lock_test_traced(l, "omp_test_lock", LOOM_OMPT_RA));
    return lo::simple_lock_test(l, "omp_test_lock");
}

LOOM_OMP_ABI void omp_init_nest_lock(loom_omp_lock_object* l) {
    LOOM_LOCK_INIT_REGISTERS();
    LOOM_OMPT_TRACED(lock_init_traced(l, lo::sync_hint_none, true, "omp_init_nest_lock", LOOM_OMPT_RA));
    lo::nest_lock_init(l, lo::sync_hint_none, "omp_init_nest_lock");
}
LOOM_OMP_ABI void omp_init_nest_lock_with_hint(loom_omp_lock_object* l, int hint) {
    LOOM_LOCK_INIT_REGISTERS();
    const auto h = static_cast<std::uintptr_t>(static_cast<unsigned>(hint));
    LOOM_OMPT_TRACED(lock_init_traced(l, h, true, "omp_init_nest_lock_with_hint", LOOM_OMPT_RA));
    lo::nest_lock_init(l, h, "omp_init_nest_lock_with_hint");
}
LOOM_OMP_ABI void omp_destroy_nest_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(lock_destroy_traced(l, true, "omp_destroy_nest_lock", LOOM_OMPT_RA));
    lo::nest_lock_destroy(l, "omp_destroy_nest_lock");
}
LOOM_OMP_ABI void omp_set_nest_lock(loom_omp_lock_object* l) {
    if (lt::on()) [[unlikely]] {
        (void)lt::nest_lock_set_traced(l, "omp_set_nest_lock", lo::current_owner_id(), LOOM_OMPT_RA);
        return;
    }
    (void)lo::nest_lock_set(l, "omp_set_nest_lock");
}
LOOM_OMP_ABI void omp_unset_nest_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(nest_lock_unset_traced(l, "omp_unset_nest_lock", lo::current_owner_id(), LOOM_OMPT_RA));
    (void)lo::nest_lock_unset(l, "omp_unset_nest_lock");
}
LOOM_OMP_ABI int omp_test_nest_lock(loom_omp_lock_object* l) {
    LOOM_OMPT_TRACED(nest_lock_test_traced(l, "omp_test_nest_lock", lo::current_owner_id(), LOOM_OMPT_RA));
    return lo::nest_lock_test(l, "omp_test_nest_lock");
}

// Entries of the libgomp-versioned lock routines (gomp/versions.cpp) jump here directly.
LOOM_GCC_DIRECT_TARGET(omp_set_lock)
LOOM_GCC_DIRECT_TARGET(omp_unset_lock)
LOOM_GCC_DIRECT_TARGET(omp_test_lock)
LOOM_GCC_DIRECT_TARGET(omp_set_nest_lock)
LOOM_GCC_DIRECT_TARGET(omp_unset_nest_lock)
LOOM_GCC_DIRECT_TARGET(omp_test_nest_lock)
