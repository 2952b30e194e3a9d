// loom::condition_variable: waits park a task (blocking a thread outside the pool).
// Works with std::unique_lock<loom::mutex> and, like condition_variable_any, with any
// BasicLockable. No spurious wake-ups, but use the predicate form anyway.
#pragma once

#include <mutex>
#include <utility>

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

private:
    void enqueue(detail::wait_node* n) noexcept;

    detail::spinlock guard_;
    detail::wait_queue queue_;
};

using condition_variable_any = condition_variable;

}  // namespace loom
