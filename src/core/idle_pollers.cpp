#include "idle_pollers.hpp"

#include <cstdio>
#include <thread>

#include "runtime.hpp"
#include "timer_heap.hpp"

namespace loom::core {

constinit idle_pollers g_pollers;

int idle_pollers::add(ext::idle_poll_fn fn, void* arg, std::int64_t interval_ns) noexcept {
    std::lock_guard lk(registry_mutex_);
    for (unsigned i = 0; i < capacity; ++i) {
        slot& s = slots_[i];
        if (s.fn.load(std::memory_order_relaxed) != nullptr) continue;
        s.arg = arg;
        s.interval_ns.store(interval_ns, std::memory_order_relaxed);
        s.epoch.store(0, std::memory_order_relaxed);
        s.last_ns.store(0, std::memory_order_relaxed);
        s.fn.store(fn, std::memory_order_release);
        if (used_.load(std::memory_order_relaxed) <= i) used_.store(i + 1, std::memory_order_release);
        return static_cast<int>(i);
    }
    std::fprintf(stderr, "loom: warning: all %u idle poller places are taken; poller not registered\n",
                 capacity);
    return -1;
}

// Nulling fn first, then taking the try-lock: a caller inside took the lock before and
// is waited for; a caller after us loads fn under the lock and sees null.
void idle_pollers::remove(int id) noexcept {
    if (id < 0 || static_cast<unsigned>(id) >= capacity) return;
    std::lock_guard lk(registry_mutex_);
    slot& s = slots_[id];
    s.fn.store(nullptr, std::memory_order_seq_cst);
    while (s.busy.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    s.epoch.store(0, std::memory_order_relaxed);
    s.busy.store(false, std::memory_order_release);
}

bool idle_pollers::mark_pending(int id) noexcept {
    if (id < 0 || static_cast<unsigned>(id) >= capacity) return false;
    if (slots_[id].fn.load(std::memory_order_acquire) == nullptr) return false;  // removed
    // Seq-cst RMW, then the caller's full fence: the waker's side of the Dekker
    // pattern against a sleeping watcher's claim, fence and next_due().
    return slots_[id].epoch.fetch_add(1, std::memory_order_seq_cst) == 0;
}

std::int64_t idle_pollers::next_due() const noexcept {
    std::int64_t due = none;
    const unsigned n = used_.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
        const slot& s = slots_[i];
        if (s.epoch.load(std::memory_order_seq_cst) == 0) continue;
        const std::int64_t at = s.last_ns.load(std::memory_order_relaxed) + s.interval_ns.load(std::memory_order_relaxed);
        if (at < due) due = at;
    }
    return due;
}

bool idle_pollers::poll_slots(std::int64_t now, bool idle) noexcept {
    bool called = false;
    const unsigned n = used_.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
        slot& s = slots_[i];
        if (s.epoch.load(std::memory_order_relaxed) == 0) continue;
        if (!idle && now - s.last_ns.load(std::memory_order_relaxed) < s.interval_ns.load(std::memory_order_relaxed))
            continue;
        called = call(s, now, false) != outcome::skipped || called;
    }
    return called;
}

// The epoch read before the call tells what the call can have seen: work marked
// before that read (acquire: the marker's writes are visible to the poller). If the
// poller then says it has nothing left, the slot is cleared only when no mark came
// meanwhile; a later mark finds 0 and wakes a watcher (mark_pending's caller).
idle_pollers::outcome idle_pollers::call(slot& s, std::int64_t now, bool force) noexcept {
    if (s.busy.load(std::memory_order_relaxed) || s.busy.exchange(true, std::memory_order_acquire))
        return outcome::skipped;
    ext::idle_poll_fn fn = s.fn.load(std::memory_order_acquire);
    std::uint64_t seen = s.epoch.load(std::memory_order_acquire);
    if (fn == nullptr || (seen == 0 && !force)) {
        // A mark that raced with remove() must not leave the slot looking pending.
        if (fn == nullptr) s.epoch.store(0, std::memory_order_relaxed);
        s.busy.store(false, std::memory_order_release);
        return outcome::skipped;
    }
    s.last_ns.store(now, std::memory_order_relaxed);
    const bool more = fn(s.arg);
    if (!more && seen != 0) s.epoch.compare_exchange_strong(seen, 0, std::memory_order_acq_rel);
    s.busy.store(false, std::memory_order_release);
    return more ? outcome::pending : outcome::idle;
}

bool idle_pollers::call_now(int id, std::int64_t now) noexcept {
    if (id < 0 || static_cast<unsigned>(id) >= capacity) return false;
    return call(slots_[id], now, true) != outcome::idle;
}

}  // namespace loom::core

namespace loom::ext {

int add_idle_poller(idle_poll_fn fn, void* arg, std::chrono::microseconds interval) {
    if (fn == nullptr) return -1;
    // A poller that asked for no delay is still called at most once per microsecond
    // by a sleeping watcher: the watcher's futex timeout needs a positive length.
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(interval).count();
    return core::pollers().add(fn, arg, ns > 1000 ? ns : 1000);
}

void remove_idle_poller(int id) noexcept { core::pollers().remove(id); }

// A poller that had nothing pending is not known to the sleeping watcher (it slept
// without its interval): wake it, or, with no watcher, a sleeper that becomes one.
void idle_poller_pending(int id) noexcept {
    if (!core::pollers().mark_pending(id)) return;
    if (core::pool* p = core::current_pool()) p->deadline_armed();
}

bool poll_now(int id) noexcept { return core::pollers().call_now(id, core::steady_now_ns()); }

}  // namespace loom::ext
