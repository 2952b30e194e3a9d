// Team-wide state of the explicit-task layer, embedded in every team (team.hpp).
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::omp {

namespace tasking {
/// The wake-up of a member's context parked lending its worker (task_hooks.cpp
/// run_one), shared by the three that may use it: the low-priority task that wakes the
/// member once its worker finds no normal work, the member itself, and its worker when
/// it takes a task of a region the member has not begun (task_runner.cpp), which must
/// not wait for that. The first wake() notifies; the record goes with the last release().
/// In a pooled record: one per park of a member whose team still has tasks.
struct lend_wake {
    std::atomic<ext::wait_slot*> slot;
    std::atomic<int> refs{2};  // the member and its wake task

    explicit lend_wake(ext::wait_slot* s) noexcept : slot(s) {}
    void wake() noexcept {
        if (ext::wait_slot* s = slot.exchange(nullptr, std::memory_order_acq_rel)) s->notify();
    }
    void release() noexcept {
        if (refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
        this->~lend_wake();
        ext::free_task(reinterpret_cast<ext::task*>(this));
    }
    static lend_wake* make(ext::wait_slot* s) {
        static_assert(sizeof(lend_wake) <= sizeof(ext::task));
        return ::new (static_cast<void*>(ext::allocate_task())) lend_wake(s);
    }
};
}  // namespace tasking

struct task_team {
    /// Members whose own task tree is not known empty since their last barrier: while it
    /// is not 0, a member waiting in a barrier lends its worker to the scheduler (it
    /// parks and its worker steals the team's tasks) instead of spinning.
    alignas(64) std::atomic<int> busy{0};
    /// Members 0..63 whose worker runs its mailbox soon: parked (taskwait, taskgroup) or
    /// waiting in a barrier (runner_for in task_runner.cpp sends them tasks that workers outside
    /// the team took; members done with their share say so in implicit_task::share_done).
    /// Each clears its bit when its wait ends; the master's join clears what is left.
    std::atomic<std::uint64_t> lending{0};
    /// Task reductions with the `task` modifier (0: parallel, 1: worksharing): the
    /// shared private copies, and how many members finished with them.
    std::atomic<void*> red_data[2] = {nullptr, nullptr};
    std::atomic<int> red_fini[2] = {0, 0};
    /// Set once gcc task reductions were registered in the team (gomp/taskgroup.cpp):
    /// their private copies are indexed by thread number, so a worker outside the team
    /// must never run a task of the team as a stand-in of its creator (runner_for in
    /// task_runner.cpp): both would write the creator's copy at once. Never cleared while the
    /// team is cached: the team's tasks then wait for a member's scheduling point, as
    /// on libgomp.
    std::atomic<bool> members_only{false};
};

}  // namespace loom::omp
