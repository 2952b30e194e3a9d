// inplace_stop_source: the registration and request protocol.
//
// One byte of state: stop_requested_bit and locked_bit. The lock bit guards the
// callback list and notifying_thread_; it is held only for a few link updates, never
// while a callback runs. Stop is requested by setting both bits in one CAS, so a
// registration that takes the lock afterwards sees the request and runs its callback
// itself, and one that took the lock before is in the list when the requester walks it.
//
// request_stop() takes callbacks off the list one at a time under the lock, then runs
// each with the lock released, so a callback may register or deregister others (or
// itself). A callback being deregistered is in one of three states, decided under the
// lock by its `prev` link:
//   - still listed: unlinked, and it will never run;
//   - taken by the requester and running on this thread (its own execution destroys
//     it): the requester is told through removed_during_callback not to touch it again;
//   - taken by the requester on another thread: the destructor waits until
//     callback_completed (release by the requester after the callback returned,
//     acquire here), so the callback never outlives its object.
#include "loom/stop_token.hpp"

#include "loom/detail/config.hpp"
#include "loom/ext/spin.hpp"

namespace loom {

inplace_stop_source::~inplace_stop_source() {
    LOOM_CHECK_USAGE(callbacks_ == nullptr,
                     "inplace_stop_source destroyed while a stop callback is still registered with it");
}

// Takes the lock unless stop was requested; with `request`, sets the stop bit in the
// same CAS. Acquire: the list links the previous holder released are visible.
bool inplace_stop_source::lock_unless_stopped(bool request) const noexcept {
    std::uint8_t s = state_.load(std::memory_order_acquire);
    unsigned spins = 0;
    for (;;) {
        if ((s & stop_requested_bit) != 0) return false;
        if ((s & locked_bit) != 0) {
            if (++spins < 64) {
                ext::cpu_relax();
            } else {
                std::this_thread::yield();
            }
            s = state_.load(std::memory_order_acquire);
            continue;
        }
        const std::uint8_t want = static_cast<std::uint8_t>(locked_bit | (request ? stop_requested_bit : 0));
        if (state_.compare_exchange_weak(s, want, std::memory_order_acq_rel, std::memory_order_acquire)) return true;
    }
}

void inplace_stop_source::lock() const noexcept {
    std::uint8_t s = state_.load(std::memory_order_acquire);
    unsigned spins = 0;
    for (;;) {
        if ((s & locked_bit) != 0) {
            if (++spins < 64) {
                ext::cpu_relax();
            } else {
                std::this_thread::yield();
            }
            s = state_.load(std::memory_order_acquire);
            continue;
        }
        if (state_.compare_exchange_weak(s, static_cast<std::uint8_t>(s | locked_bit), std::memory_order_acquire,
                                         std::memory_order_acquire))
            return;
    }
}

bool inplace_stop_source::request_stop() noexcept {
    if (!lock_unless_stopped(true)) return false;
    notifying_thread_ = std::this_thread::get_id();
    while (detail::stop_callback_base* cb = callbacks_) {
        callbacks_ = cb->next;
        if (callbacks_ != nullptr) callbacks_->prev = &callbacks_;
        cb->prev = nullptr;  // taken: remove() no longer unlinks it
        bool removed = false;
        cb->removed_during_callback = &removed;
        unlock(stop_requested_bit);
        cb->execute(cb);
        if (!removed) {
            cb->removed_during_callback = nullptr;
            cb->callback_completed.store(true, std::memory_order_release);
        }
        lock();
    }
    unlock(stop_requested_bit);
    return true;
}

bool inplace_stop_source::try_add(detail::stop_callback_base* cb) const noexcept {
    if (!lock_unless_stopped(false)) return false;
    cb->next = callbacks_;
    cb->prev = &callbacks_;
    if (callbacks_ != nullptr) callbacks_->prev = &cb->next;
    callbacks_ = cb;
    unlock(0);  // nobody can request stop while the lock is held
    return true;
}

void inplace_stop_source::remove(detail::stop_callback_base* cb) const noexcept {
    lock();
    const std::uint8_t after = static_cast<std::uint8_t>(state_.load(std::memory_order_relaxed) & ~locked_bit);
    if (cb->prev != nullptr) {
        *cb->prev = cb->next;
        if (cb->next != nullptr) cb->next->prev = cb->prev;
        unlock(after);
        return;
    }
    const bool on_notifying_thread = notifying_thread_ == std::this_thread::get_id();
    unlock(after);
    if (on_notifying_thread) {
        // Running here now (destroyed by its own execution), or finished already (the
        // requester cleared the pointer again): either way nothing to wait for.
        if (cb->removed_during_callback != nullptr) *cb->removed_during_callback = true;
        return;
    }
    unsigned spins = 0;
    while (!cb->callback_completed.load(std::memory_order_acquire)) {
        if (++spins < 64) {
            ext::cpu_relax();
        } else {
            std::this_thread::yield();
        }
    }
}

}  // namespace loom
