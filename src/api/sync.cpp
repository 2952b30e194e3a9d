// The slow paths of loom::mutex, condition_variable, counting_semaphore and barrier,
// their timed variants included. The memory-ordering argument of each protocol is in
// the comment above its code; the withdrawal of a timed-out waiter in wait_queue.hpp.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <type_traits>

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

// Takes `guard_bit` of `word` once no other context holds it; returns the word as it
// was. Only while the caller has a reason to be there (a waiter of its own queued, or
// handed the object), so the protocol's guard can be taken.
template <class Word>
Word take_guard(std::atomic<Word>& word, std::type_identity_t<Word> guard_bit) noexcept {
    unsigned spins = 0;
    for (;;) {
        Word w = word.load(std::memory_order_relaxed);
        if ((w & guard_bit) != 0) {
            backoff(spins);
            continue;
        }
        if (word.compare_exchange_weak(w, w | guard_bit, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
            return w;
        }
    }
}

}  // namespace

// ---- mutex ------------------------------------------------------------------------
//
// word_ = locked_bit | guard_bit | waiters_bit. guard_bit is only ever set while
// locked_bit is set, and waiters_bit only while locked_bit is set; so "unlocked" is
// exactly word_ == 0. While a context holds guard_bit nobody else changes word_
// (every other transition is a CAS from a value without guard_bit), so the holder
// releases it with a plain store. Ownership passes directly to the first waiter
// (locked_bit stays set), so a woken waiter never competes again.

void mutex::lock_slow() noexcept { (void)lock_slow_until(detail::steady_time::max()); }

// lock_slow is this without a deadline (steady_time::max(): the slot waits untimed).
// Once the deadline passes, the waiter takes the guard and leaves the queue. If it is no
// longer queued, unlock_slow has popped it and handed it the mutex (its notify is on the
// way): it collects the notification and owns the lock.
bool mutex::lock_slow_until(detail::steady_time deadline) noexcept {
    if (deadline != detail::steady_time::max() && std::chrono::steady_clock::now() >= deadline)
        return false;  // try_lock failed already
    for (unsigned i = 0; i < lock_spin; ++i) {
        if (word_.load(std::memory_order_relaxed) == 0 && try_lock()) return true;
        detail::cpu_relax();
    }
    detail::wait_node me;
    unsigned spins = 0;
    for (;;) {
        std::uint32_t w = word_.load(std::memory_order_relaxed);
        if (w == 0) {
            if (word_.compare_exchange_weak(w, locked_bit, std::memory_order_acquire,
                                            std::memory_order_relaxed)) {
                return true;
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
        if (me.slot.wait_until(deadline)) return true;  // handed over by unlock_slow
        w = take_guard(word_, guard_bit);
        if (queue_.remove(&me)) {
            word_.store(locked_bit | (queue_.empty() ? 0 : waiters_bit), std::memory_order_release);
            return false;
        }
        word_.store(w, std::memory_order_release);
        me.slot.wait();
        return true;
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

bool condition_variable::withdraw(detail::wait_node* n) noexcept {
    bool removed = false;
    {
        std::lock_guard g(guard_);
        removed = queue_.remove(n);
    }
    if (!removed) n->slot.wait();  // a notify took it: collect the notification
    return removed;
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

void semaphore_base::acquire_slow() noexcept { (void)acquire_slow_until(steady_time::max()); }

// acquire_slow is this without a deadline (steady_time::max(): the slot waits untimed).
// Once the deadline passes, the waiter takes the guard and leaves the queue. If it is no
// longer queued, release_slow has handed it a unit (its notify is on the way): it
// collects the notification and keeps the unit.
bool semaphore_base::acquire_slow_until(steady_time deadline) noexcept {
    if (deadline != steady_time::max() && std::chrono::steady_clock::now() >= deadline)
        return false;  // try_acquire failed already
    for (unsigned i = 0; i < lock_spin; ++i) {
        if (try_acquire()) return true;
        cpu_relax();
    }
    wait_node me;
    unsigned spins = 0;
    for (;;) {
        std::uint64_t w = word_.load(std::memory_order_relaxed);
        if ((w >> count_shift) > 0) {
            if (word_.compare_exchange_weak(w, w - (std::uint64_t{1} << count_shift),
                                            std::memory_order_acquire, std::memory_order_relaxed)) {
                return true;
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
        if (me.slot.wait_until(deadline)) return true;  // a unit handed over by release_slow
        w = take_guard(word_, guard_bit);
        if (queue_.remove(&me)) {
            word_.store((w & ~waiters_bit) | (queue_.empty() ? 0 : waiters_bit), std::memory_order_release);
            return false;
        }
        word_.store(w, std::memory_order_release);
        me.slot.wait();
        return true;
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

// wait() is this without a deadline. A waiter whose deadline passed leaves the queue
// under the guard; if the last arrival has taken the queue already, the phase is over
// and its notify is on the way.
bool barrier_base::wait_steady(const arrival_token& t, steady_time deadline) const noexcept {
    wait_node me;
    guard_.lock();
    if (phase_ != t.phase_) {
        guard_.unlock();
        return true;
    }
    queue_.push(&me);
    guard_.unlock();
    if (me.slot.wait_until(deadline)) return true;
    guard_.lock();
    const bool removed = queue_.remove(&me);
    guard_.unlock();
    if (removed) return false;
    me.slot.wait();
    return true;
}

void barrier_base::wait(arrival_token&& t) const noexcept { (void)wait_steady(t, steady_time::max()); }

}  // namespace detail

}  // namespace loom
