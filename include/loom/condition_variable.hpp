// loom::condition_variable: waits park a task (blocking a thread outside the pool).
// Works with std::unique_lock<loom::mutex> and, like condition_variable_any, with any
// BasicLockable. No spurious wake-ups (but a wait_until on a clock other than
// steady_clock that was set back), but use the predicate form anyway.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <type_traits>
#include <utility>

#include "loom/detail/deadline.hpp"
#include "loom/detail/spinlock.hpp"
#include "loom/detail/wait_queue.hpp"
#include "loom/ext/export.hpp"
#include "loom/mutex.hpp"

namespace loom {

class LOOM_EXPORT condition_variable {
public:
    condition_variable() noexcept = default;
    condition_variable(const condition_variable&) = delete;
    condition_variable& operator=(const condition_variable&) = delete;
    ~condition_variable() = default;

    void notify_one() noexcept;
    void notify_all() noexcept;

    /// Atomically releases `lock` and waits for a notification, then re-locks.
    template <class Lock>
    void wait(Lock& lock) {
        detail::wait_node n;
        enqueue(&n);  // before unlocking: a notify after our unlock finds us
        lock.unlock();
        n.slot.wait();
        lock.lock();
    }
    template <class Lock, class Predicate>
    void wait(Lock& lock, Predicate pred) {
        while (!pred()) wait(lock);
    }

    /// wait() that gives up once `d` has passed (steady_clock): no_timeout if notified.
    template <class Lock, class Rep, class Period>
    std::cv_status wait_for(Lock& lock, const std::chrono::duration<Rep, Period>& d) {
        return wait_steady(lock, detail::deadline_after(d)) ? std::cv_status::no_timeout : std::cv_status::timeout;
    }
    /// Waits until pred() holds or `d` has passed; returns pred() at the end.
    template <class Lock, class Rep, class Period, class Predicate>
    bool wait_for(Lock& lock, const std::chrono::duration<Rep, Period>& d, Predicate pred) {
        return wait_until(lock, detail::deadline_after(d), std::move(pred));
    }
    /// wait() that gives up once `t` has passed on its clock.
    template <class Lock, class Clock, class Duration>
    std::cv_status wait_until(Lock& lock, const std::chrono::time_point<Clock, Duration>& t) {
        if (wait_steady(lock, detail::deadline_at(t))) return std::cv_status::no_timeout;
        if constexpr (std::is_same_v<Clock, std::chrono::steady_clock>) {
            return std::cv_status::timeout;
        } else {
            // That clock may be early still (set back): a spurious wake-up.
            return Clock::now() >= t ? std::cv_status::timeout : std::cv_status::no_timeout;
        }
    }
    /// Waits until pred() holds or `t` has passed; returns pred() at the end.
    template <class Lock, class Clock, class Duration, class Predicate>
    bool wait_until(Lock& lock, const std::chrono::time_point<Clock, Duration>& t, Predicate pred) {
        while (!pred()) {
            if (wait_until(lock, t) == std::cv_status::timeout) return pred();
        }
        return true;
    }

private:
    void enqueue(detail::wait_node* n) noexcept;
    /// After a timeout: takes `n` off the queue (true), or, when a notify took it
    /// already, waits for that notification (false).
    bool withdraw(detail::wait_node* n) noexcept;

    /// True if notified before `due`.
    template <class Lock>
    bool wait_steady(Lock& lock, detail::steady_time due) {
        detail::wait_node n;
        enqueue(&n);
        lock.unlock();
        const bool notified = n.slot.wait_until(due) || !withdraw(&n);
        lock.lock();
        return notified;
    }

    detail::spinlock guard_;
    detail::wait_queue queue_;
};

using condition_variable_any = condition_variable;

}  // namespace loom
