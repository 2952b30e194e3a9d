// ext::wait_slot: the one-shot event every blocking primitive of loom is built on.
// Protocol and memory-ordering argument: docs/protocols/wait_slot.md.
#include "futex.hpp"
#include "loop.hpp"
#include "pool.hpp"

namespace loom::ext {

namespace {

bool can_park() noexcept {
    core::worker* w = core::this_worker();
    return w != nullptr;  // pool threads and the slot-0 thread (its native stack is tied)
}

// A worker about to block its thread (it found no fiber to park on): the tasks queued
// on its deques would wait for it while other workers sleep (each push woke one, which
// may have gone back to sleep). One is woken to take them.
void hand_on_queued_work() noexcept {
    core::worker* w = core::this_worker();
    if (!w) return;
    if (!w->local_deque(priority::normal).looks_empty() || !w->local_deque(priority::low).looks_empty())
        w->owner.wake_one();
}

// A parked timed wait: its timer entry and what the commit step needs. Lives in
// wait_until's frame, on the parked stack.
struct timed_park {
    wait_slot* slot;
    core::timer_entry entry;
    bool unarmed = false;  // the heap could not take the entry: the waiter blocks instead
};

}  // namespace

void wait_slot::wait() noexcept {
    if (state_.load(std::memory_order_acquire) == notified_state) return;
    if (can_park()) {
        auto commit = [](core::context* parked, void* arg) -> bool {
            auto* self = static_cast<wait_slot*>(arg);
            self->context_ = parked;
            std::uint32_t expected = empty_state;
            // Release: context_ is visible to the notifier that reads parked_state.
            return self->state_.compare_exchange_strong(expected, parked_state, std::memory_order_acq_rel,
                                                        std::memory_order_acquire);
        };
        if (core::park_current(commit, this)) {
            // Resumed by notify(); its exchange released everything written before it.
            (void)state_.load(std::memory_order_acquire);
            return;
        }
    }
    std::uint32_t expected = empty_state;
    if (!state_.compare_exchange_strong(expected, blocked_state, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        return;  // notified meanwhile
    hand_on_queued_work();
    while (state_.load(std::memory_order_acquire) != notified_state) core::futex_wait(&state_, blocked_state);
}

// Timed: the commit step arms the timer and publishes `parked` under the heap's lock,
// so an expiry never sees an entry whose wait is not published. From then on exactly one
// of notify()'s exchange and the expiry's CAS (parked -> empty) takes the parked state,
// and only that one resumes the context (wait_slot.md, "Timed waits").
bool wait_slot::wait_until(std::chrono::steady_clock::time_point deadline) noexcept {
    if (notified()) return true;
    const std::int64_t due = core::steady_ns(deadline);
    if (due == core::timer_heap::none) {
        wait();
        return true;
    }
    if (core::steady_now_ns() >= due) return false;
    if (!can_park()) return block_until(due);
    timed_park tp{this, {}, false};
    tp.entry.deadline = due;
    tp.entry.owner = this;
    tp.entry.expire = [](core::timer_entry* e) noexcept -> bool {
        auto* self = static_cast<wait_slot*>(e->owner);
        std::uint32_t expected = parked_state;
        return self->state_.compare_exchange_strong(expected, empty_state, std::memory_order_acq_rel,
                                                    std::memory_order_relaxed);
    };
    auto commit = [](core::context* parked, void* arg) -> bool {
        auto* park = static_cast<timed_park*>(arg);
        park->slot->context_ = parked;
        park->entry.ctx = parked;
        auto publish = [](void* a) noexcept -> bool {
            auto* self = static_cast<wait_slot*>(a);
            std::uint32_t expected = empty_state;
            return self->state_.compare_exchange_strong(expected, parked_state, std::memory_order_acq_rel,
                                                        std::memory_order_acquire);
        };
        // Once armed the waiter may be resumed and gone: `park` is not touched again.
        core::pool& p = core::this_worker()->owner;
        switch (p.timers.arm(park->entry, publish, park->slot)) {
            case core::timer_heap::arm_result::earliest:
                p.deadline_armed();
                return true;
            case core::timer_heap::arm_result::armed:
                return true;
            case core::timer_heap::arm_result::no_memory:
                park->unarmed = true;
                return false;
            case core::timer_heap::arm_result::declined:
                break;
        }
        return false;  // notified before it could park
    };
    if (core::park_current(commit, &tp) && !tp.unarmed) {
        if (state_.load(std::memory_order_acquire) != notified_state) return false;  // the timer resumed it
        // Resumed by notify() (or notified after the timer won): the entry may still be
        // queued, and an expiry that lost the race may still hold it under the lock.
        core::this_worker()->owner.timers.cancel(tp.entry);
        return true;
    }
    return block_until(due);
}

// A thread outside the pool (or a worker that could not park): the futex's timeout.
// On timeout the thread withdraws with blocked -> empty; if that CAS fails, notify()'s
// exchange came first and the wait ends notified.
bool wait_slot::block_until(std::int64_t due) noexcept {
    std::uint32_t expected = empty_state;
    if (!state_.compare_exchange_strong(expected, blocked_state, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        return true;  // notified meanwhile
    hand_on_queued_work();
    for (;;) {
        if (state_.load(std::memory_order_acquire) == notified_state) return true;
        const std::int64_t left = due - core::steady_now_ns();
        if (left <= 0) {
            expected = blocked_state;
            return !state_.compare_exchange_strong(expected, empty_state, std::memory_order_acq_rel,
                                                   std::memory_order_acquire);
        }
        core::futex_wait_for(&state_, blocked_state, static_cast<long>(left));
    }
}

void wait_slot::notify() noexcept {
    // Read context_ only after seeing parked_state: the waiter wrote it before.
    std::uint32_t old = state_.exchange(notified_state, std::memory_order_acq_rel);
    if (old == parked_state) {
        core::make_runnable(static_cast<core::context*>(context_));
    } else if (old == blocked_state) {
        core::futex_wake(&state_, 1);
    }
}

}  // namespace loom::ext
