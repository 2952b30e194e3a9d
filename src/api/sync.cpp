// The slow paths of loom::mutex, condition_variable, counting_semaphore and barrier.
// The memory-ordering argument of each protocol is in the comment above its code.
#include <atomic>
#include <cstdint>
#include <thread>

#include "loom/barrier.hpp"
#include "loom/condition_variable.hpp"
#include "loom/detail/config.hpp"
#include "loom/mutex.hpp"
#include "loom/semaphore.hpp"

namespace loom {

namespace {

// Waiting for another context's guard bit: held for a few instructions, but the
// holder may be preempted on an oversubscribed machine.
inline void backoff(unsigned& spins) noexcept {
    if (++spins < 64) {
        detail::cpu_relax();
    } else {
        std::this_thread::yield();
    }
}

constexpr unsigned lock_spin = 128;

}  // namespace

// ---- mutex ------------------------------------------------------------------------
//
// word_ = locked_bit | guard_bit | waiters_bit. guard_bit is only ever set while
// locked_bit is set, and waiters_bit only while locked_bit is set; so "unlocked" is
// exactly word_ == 0. While a context holds guard_bit nobody else changes word_
// (every other transition is a CAS from a value without guard_bit), so the holder
// releases it with a plain store. Ownership passes directly to the first waiter
// (locked_bit stays set), so a woken waiter never competes again.

void mutex::lock_slow() noexcept {
    for (unsigned i = 0; i < lock_spin; ++i) {
        if (word_.load(std::memory_order_relaxed) == 0 && try_lock()) return;
        detail::cpu_relax();
    }
    detail::wait_node me;
    unsigned spins = 0;
    for (;;) {
        std::uint32_t w = word_.load(std::memory_order_relaxed);
        if (w == 0) {
            if (word_.compare_exchange_weak(w, locked_bit, std::memory_order_acquire,
                                            std::memory_order_relaxed)) {
                return;
            }
            continue;
        }
        if ((w & guard_bit) != 0) {
            backoff(spins);
            continue;
        }
        if (!word_.compare_exchange_weak(w, w | guard_bit, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
            continue;
        }
        queue_.push(&me);
        word_.store(locked_bit | waiters_bit, std::memory_order_release);
        me.slot.wait();  // returns owning the mutex (handed over by unlock_slow)
        return;
    }
}

void mutex::unlock_slow() noexcept {
    unsigned spins = 0;
    for (;;) {
        std::uint32_t w = word_.load(std::memory_order_relaxed);
        LOOM_CHECK_USAGE((w & locked_bit) != 0, "loom::mutex::unlock: mutex not locked");
        if (w == locked_bit) {
            if (word_.compare_exchange_weak(w, 0, std::memory_order_release, std::memory_order_relaxed)) {
                return;
            }
            continue;
        }
        if ((w & guard_bit) != 0) {
            backoff(spins);
            continue;
        }
        if (!word_.compare_exchange_weak(w, w | guard_bit, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
            continue;
        }
        detail::wait_node* next = queue_.pop();  // non-null: waiters_bit was set
        word_.store(locked_bit | (queue_.empty() ? 0 : waiters_bit), std::memory_order_release);
        next->slot.notify();  // hand over; the mutex itself is not touched any more
        return;
    }
}

// ---- condition_variable ---------------------------------------------------------------

void condition_variable::enqueue(detail::wait_node* n) noexcept {
    std::lock_guard g(guard_);
    queue_.push(n);
}

void condition_variable::notify_one() noexcept {
    detail::wait_node* n = nullptr;
    {
        std::lock_guard g(guard_);
        n = queue_.pop();
    }
    if (n != nullptr) n->slot.notify();
}

void condition_variable::notify_all() noexcept {
    detail::wait_node* list = nullptr;
    {
        std::lock_guard g(guard_);
        list = queue_.take_all();
    }
    detail::notify_list(list);
}

// ---- counting_semaphore ---------------------------------------------------------------
//
// word_ = count << 2 | waiters_bit | guard_bit. Waiters exist only while the count is
// 0. The fast release (count += n) is only allowed without guard and waiters; with
// waiters, release takes the guard and hands units to them directly (FIFO). While the
// guard is held nobody else changes word_: fast acquires need count > 0, which cannot
// hold while a waiter is queued or while an acquirer holds the guard (it took it
// seeing count == 0, and fast releases are excluded by the guard).

namespace detail {

void semaphore_base::acquire_slow() noexcept {
    for (unsigned i = 0; i < lock_spin; ++i) {
        if (try_acquire()) return;
        cpu_relax();
    }
    wait_node me;
    unsigned spins = 0;
    for (;;) {
        std::uint64_t w = word_.load(std::memory_order_relaxed);
        if ((w >> count_shift) > 0) {
            if (word_.compare_exchange_weak(w, w - (std::uint64_t{1} << count_shift),
                                            std::memory_order_acquire, std::memory_order_relaxed)) {
                return;
            }
            continue;
        }
        if ((w & guard_bit) != 0) {
            backoff(spins);
            continue;
        }
        if (!word_.compare_exchange_weak(w, w | guard_bit, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
            continue;
        }
        queue_.push(&me);
        word_.store(waiters_bit, std::memory_order_release);  // count is 0
        me.slot.wait();  // returns with a unit handed over by release_slow
        return;
    }
}

void semaphore_base::release_slow(std::ptrdiff_t update) noexcept {
    unsigned spins = 0;
    for (;;) {
        std::uint64_t w = word_.load(std::memory_order_relaxed);
        if ((w & (guard_bit | waiters_bit)) == 0) {
            if (word_.compare_exchange_weak(w, w + (static_cast<std::uint64_t>(update) << count_shift),
                                            std::memory_order_release, std::memory_order_relaxed)) {
                return;
            }
            continue;
        }
        if ((w & guard_bit) != 0) {
            backoff(spins);
            continue;
        }
        if (!word_.compare_exchange_weak(w, w | guard_bit, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
            continue;
        }
        wait_node* woken = nullptr;
        wait_node** tail = &woken;
        while (update > 0 && !queue_.empty()) {
            wait_node* n = queue_.pop();
            n->next = nullptr;
            *tail = n;
            tail = &n->next;
            --update;
        }
        const std::uint64_t count = (w >> count_shift) + static_cast<std::uint64_t>(update);
        word_.store((count << count_shift) | (queue_.empty() ? 0 : waiters_bit), std::memory_order_release);
        notify_list(woken);
        return;
    }
}

// ---- barrier ----------------------------------------------------------------------
//
// Everything is guarded by guard_. The last arrival of a phase runs the completion
// function without holding the guard (arrivals of the next phase cannot happen before
// the phase ends, and waiters of this phase queue up meanwhile), then advances the
// phase, resets the count and takes the queue under the guard, and notifies after
// releasing it: its last access to the barrier is that release.

barrier_base::arrival_token barrier_base::arrive_impl(std::ptrdiff_t n, bool drop) noexcept {
    guard_.lock();
    const std::uint64_t phase = phase_;
    if (drop) --expected_;
    LOOM_CHECK_USAGE(n > 0 && remaining_ >= n, "loom::barrier::arrive: more arrivals than expected");
    remaining_ -= n;
    if (remaining_ != 0) {
        guard_.unlock();
        return arrival_token(phase);
    }
    guard_.unlock();
    fn_(ctx_);
    guard_.lock();
    ++phase_;
    remaining_ = expected_;
    wait_node* list = queue_.take_all();
    guard_.unlock();
    notify_list(list);
    return arrival_token(phase);
}

void barrier_base::wait(arrival_token&& t) const noexcept {
    wait_node me;
    guard_.lock();
    if (phase_ != t.phase_) {
        guard_.unlock();
        return;
    }
    queue_.push(&me);
    guard_.unlock();
    me.slot.wait();
}

}  // namespace detail

}  // namespace loom
