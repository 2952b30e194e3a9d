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
    while (state_.load(std::memory_order_acquire) != notified_state) core::futex_wait(&state_, blocked_state);
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
