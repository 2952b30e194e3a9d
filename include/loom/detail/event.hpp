// A one-shot event with a lock-free list of things to do when it is set: the ready
// flag and continuation list of a future's shared state, and the release of a latch.
//
// The list head is one word: 0 (nothing registered), set_mark (the event is set,
// nothing may be added any more), or a tagged pointer to the most recently added
// entry. An entry is either a callback_node (tag 0: its fire() runs inline in the
// setter; waiters use it to notify their wait_slot) or an ext::task (tag task_tag:
// the setter submits it as a new task). Entries are pushed with a CAS (release) and
// taken all at once by set()'s exchange (acq_rel), so an entry is never removed while
// others are being added, and there is no ABA. Whatever the setter wrote before set()
// happens-before every entry runs (release CAS by the adder, acq_rel exchange by the
// setter), and whatever an adder wrote before add() is visible to the setter.
//
// A timed waiter whose deadline passes takes its entry out again (remove): it sets
// guard_bit in the head with a CAS (acquire: it reads the links the adders released),
// unlinks its entry and stores the head back without the bit (release: set() reads the
// new links). While the bit is set nobody else changes the head: adders and set() CAS
// only from values without it and wait for it to clear. Once set() has taken the list,
// remove() sees set_mark and the waiter knows its entry will fire.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

struct callback_node {
    std::uintptr_t next = 0;  // tagged link to the entry registered before this one
    void (*fire)(callback_node*) noexcept = nullptr;
};

/// A callback_node that wakes one waiting context. It lives on the waiter's stack:
/// safe, because the waiter stays parked (or blocked) until fire() notifies it, and
/// set() reads `next` before calling fire().
struct waiter_node : callback_node {
    ext::wait_slot slot;
    waiter_node() noexcept {
        fire = [](callback_node* n) noexcept { static_cast<waiter_node*>(n)->slot.notify(); };
    }
};

class event {
public:
    static constexpr std::uintptr_t set_mark = 1;
    static constexpr std::uintptr_t task_tag = 2;
    static constexpr std::uintptr_t guard_bit = 4;  // entries are 8-byte aligned

    [[nodiscard]] bool is_set() const noexcept {
        return head_.load(std::memory_order_acquire) == set_mark;
    }

    /// Registers `n`; returns false (and registers nothing) if the event is already set.
    bool add(callback_node* n) noexcept { return push(reinterpret_cast<std::uintptr_t>(n)); }

    /// Registers `t` to be submitted when the event is set; returns false (and
    /// registers nothing) if the event is already set: the caller submits it itself.
    /// Until then the task's intrusive link (ext::task::next) holds the list link.
    bool add(ext::task* t) noexcept { return push(reinterpret_cast<std::uintptr_t>(t) | task_tag); }

    /// Sets the event and runs/submits everything registered (most recent first).
    /// Everything written before set() happens-before each registered entry runs.
    LOOM_EXPORT void set() noexcept;

    /// set() for an event no other thread can reach yet, with nothing registered (a
    /// future made ready as it is created): a store instead of set()'s
    /// read-modify-write. Whoever is handed the event later is ordered after this by
    /// the hand-over itself; release keeps is_set()'s acquire pairing with it anyway.
    void set_unshared() noexcept { head_.store(set_mark, std::memory_order_release); }

    /// Returns once the event is set (parks the calling task, or blocks a thread
    /// outside the pool).
    LOOM_EXPORT void wait() noexcept;
    /// As wait(), but gives up once `deadline` has passed: true if the event is set.
    LOOM_EXPORT bool wait_until(std::chrono::steady_clock::time_point deadline) noexcept;

    /// Unlinks `n` (registered by add()) unless set() has taken it; false if it has:
    /// then its fire() runs or has run.
    LOOM_EXPORT bool remove(callback_node* n) noexcept;

private:
    // Pushes `entry`, storing the previous head in the entry's link before the
    // releasing CAS publishes it. Seeing set_mark must acquire (load and CAS failure):
    // the caller then goes on without waiting and reads what the setter wrote.
    bool push(std::uintptr_t entry) noexcept {
        std::uintptr_t old = head_.load(std::memory_order_acquire);
        for (;;) {
            if (old == set_mark) return false;
            if ((old & guard_bit) != 0) {
                old = wait_unguarded();
                continue;
            }
            if (entry & task_tag) {
                reinterpret_cast<ext::task*>(entry & ~task_tag)->next = reinterpret_cast<ext::task*>(old);
            } else {
                reinterpret_cast<callback_node*>(entry)->next = old;
            }
            if (head_.compare_exchange_weak(old, entry, std::memory_order_release,
                                            std::memory_order_acquire)) {
                return true;
            }
        }
    }

    /// Waits until no remove() holds the list; returns the head then (acquire).
    LOOM_EXPORT std::uintptr_t wait_unguarded() const noexcept;

    std::atomic<std::uintptr_t> head_{0};
};

}  // namespace loom::detail
