// The deadlines of parked timed waits (wait_slot::wait_until): a binary min-heap of
// entries that live in the waiters' frames, served by the workers when they look for
// work and before they sleep. Protocol and orderings: docs/protocols/timers.md.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "spin_lock.hpp"

namespace loom::core {

struct context;

/// A steady_clock time point as the heap keeps it: nanoseconds since the clock's epoch.
inline std::int64_t steady_ns(std::chrono::steady_clock::time_point t) noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
inline std::int64_t steady_now_ns() noexcept { return steady_ns(std::chrono::steady_clock::now()); }

/// One parked timed wait. It lives in the waiter's frame, which stays alive until the
/// waiter resumes: a waiter resumed by its timer is off the heap already, and one
/// resumed otherwise takes its entry off (cancel) before it returns. Every field but
/// the constant ones is guarded by the heap's lock.
struct timer_entry {
    static constexpr std::size_t not_queued = std::numeric_limits<std::size_t>::max();

    std::int64_t deadline = 0;  // steady_clock, nanoseconds since its epoch
    /// Runs under the heap's lock once the deadline has passed: takes the wait back
    /// from whoever would notify it. True: the timer won and must resume `ctx`; false:
    /// a notification came first and resumes it.
    bool (*expire)(timer_entry*) noexcept = nullptr;
    void* owner = nullptr;  // what `expire` works on (the wait_slot)
    context* ctx = nullptr;  // the parked waiter
    std::size_t index = not_queued;  // position in the heap
    timer_entry* next_fired = nullptr;  // link of the list take_due() returns
};

class timer_heap {
public:
    /// earliest() of an empty heap.
    static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();

    enum class arm_result {
        declined,   // publish() said no: nothing queued
        armed,      // queued behind an earlier deadline
        earliest,   // queued as the new earliest deadline: a sleeping watcher must know
        no_memory,  // the heap could not grow: nothing queued, publish() not run
    };

    timer_heap();

    /// The earliest deadline queued, `none` when empty. Read without the lock: a hint
    /// that lets a worker skip the lock (and the clock) while no timer is pending; the
    /// orderings that make it enough before a sleep are in timers.md.
    [[nodiscard]] std::int64_t earliest() const noexcept { return earliest_.load(std::memory_order_relaxed); }

    /// Queues `e`, then runs publish(arg) under the lock and keeps `e` only if it
    /// returns true. Publishing under the lock is what keeps an expiry from reaching
    /// an entry whose wait is not published yet.
    arm_result arm(timer_entry& e, bool (*publish)(void*), void* arg) noexcept;
    /// Takes `e` off the heap if it is still there. Afterwards no expiry touches `e`.
    void cancel(timer_entry& e) noexcept;
    /// Takes every entry due at `now`, runs its expire() and returns, linked through
    /// next_fired, those whose waiter the caller must resume. The caller reads each
    /// link before it resumes the entry's waiter (who may then free it).
    timer_entry* take_due(std::int64_t now) noexcept;

private:
    void sift_up(std::size_t i) noexcept;
    void sift_down(std::size_t i) noexcept;
    void place(std::size_t i, timer_entry* e) noexcept {
        heap_[i] = e;
        e->index = i;
    }
    void erase_at(std::size_t i) noexcept;
    void publish_earliest() noexcept {
        earliest_.store(heap_.empty() ? none : heap_.front()->deadline, std::memory_order_relaxed);
    }

    spin_lock lock_;
    std::vector<timer_entry*> heap_;  // guarded by lock_
    std::atomic<std::int64_t> earliest_{none};
};

}  // namespace loom::core
