// Idle pollers (ext::add_idle_poller): functions outside the scheduler that workers
// call when they have nothing else to do, and that keep one sleeping worker waking at
// a bounded interval while they have work pending. Protocol and orderings:
// docs/protocols/idle_pollers.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>

#include "loom/ext/scheduler.hpp"

namespace loom::core {

class idle_pollers {
public:
    static constexpr unsigned capacity = 16;
    static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();

    int add(ext::idle_poll_fn fn, void* arg, std::int64_t interval_ns) noexcept;
    void remove(int id) noexcept;
    /// Counts a new piece of pending work; true when the poller had none before (the
    /// caller must then make sure a sleeping worker learns of it).
    bool mark_pending(int id) noexcept;

    /// Some poller has work pending. Cheap while none is registered: one relaxed load.
    [[nodiscard]] bool active() const noexcept {
        const unsigned n = used_.load(std::memory_order_relaxed);
        for (unsigned i = 0; i < n; ++i)
            if (slots_[i].epoch.load(std::memory_order_relaxed) != 0) return true;
        return false;
    }
    /// Calls the pollers with work pending: every one when `idle`, else those whose
    /// last call is at least their interval before `now` (steady nanoseconds). True if
    /// this thread called one (it may have made tasks runnable).
    bool poll(std::int64_t now, bool idle) noexcept {
        return used_.load(std::memory_order_relaxed) != 0 && poll_slots(now, idle);
    }
    /// When the next call is due, for a sleeping watcher: the earliest "last call +
    /// interval" of the pollers with work pending, `none` when none has. Seq-cst
    /// loads: the sleeper's side of the Dekker pattern with mark_pending.
    [[nodiscard]] std::int64_t next_due() const noexcept;
    /// Calls poller `id` here if nobody else is inside it; true if it is (or stays) pending.
    bool call_now(int id, std::int64_t now) noexcept;

private:
    struct alignas(64) slot {
        std::atomic<ext::idle_poll_fn> fn{nullptr};
        void* arg = nullptr;             // written before fn (release), read after it (acquire)
        // Atomic: a worker that saw the slot pending may read it while remove() and
        // add() reuse the slot (it then polls once at the wrong interval, harmlessly).
        std::atomic<std::int64_t> interval_ns{0};
        // Marks of pending work, 0 = nothing pending. A call reads it before polling
        // and clears it only if it is unchanged afterwards (CAS), so a mark that races
        // with a call that found nothing is never lost.
        std::atomic<std::uint64_t> epoch{0};
        std::atomic<bool> busy{false};   // try-lock: one caller at a time
        std::atomic<std::int64_t> last_ns{0};
    };
    enum class outcome { skipped, idle, pending };

    bool poll_slots(std::int64_t now, bool idle) noexcept;
    outcome call(slot& s, std::int64_t now, bool force) noexcept;

    slot slots_[capacity];
    std::atomic<unsigned> used_{0};  // slots [0, used_) may hold a poller
    std::mutex registry_mutex_;      // add and remove
};

/// The process's pollers: they outlive pools (a pool may end and another start).
/// Constant-initialised, so reaching them costs no guard check.
extern idle_pollers g_pollers;
inline idle_pollers& pollers() noexcept { return g_pollers; }

}  // namespace loom::core
