// How team waits take part in explicit tasking (the hooks of wait.hpp): barriers and
// region ends drain a member's tasks, a member waiting in a barrier runs or waits for
// the team's tasks, and members mark their workers free ("lending") for tasks that
// workers outside the team took (runner_for in task_runner.cpp).
#include <atomic>
#include <cstdint>

#include "tasking/dep.hpp"
#include "loom/ext/scheduler.hpp"
#include "tasking/task.hpp"
#include "tasking/task_runner.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp::tasking {
namespace {

// Marks a member's worker as free for the team's tasks; the RMW only when the bit is
// not set yet (the line is shared with `busy`, which every waiting member reads).
void lend(team* t, std::uint64_t bit) {
    if (!(t->tasks.lending.load(std::memory_order_relaxed) & bit))
        t->tasks.lending.fetch_or(bit, std::memory_order_acq_rel);
}

// A member at the end of its share of the region (it drains its tasks, then joins and
// lingers or retires): its worker is free for the team's tasks until the region ends.
// Even when no member has tasks yet: one still running its share may create some that
// a worker outside the team takes, and this member must be there to run them (test
// task_team_only). A flag on the member's own line, not a bit of `lending`: an RMW there
// by every member at every region end cost each fork/join two line transfers.
void done_with_region(implicit_task* it) {
    if (!it->tm || !lending_bit(it)) return;
    if (it->tid == 0) it->region_ending = true;  // read by the master itself (end_wait)
    std::atomic_ref(it->share_done).store(true, std::memory_order_release);
}

// A barrier inside a taskgroup (gcc opens one around every worksharing construct with
// task reductions, and user code may put a barrier in one): the subtrees of the
// member's tasks created in the group release into the group's node, not into the
// member's, so waiting on the member's node alone lets the barrier complete while
// grandchildren still run. The barrier must see every explicit task of the region
// complete (OpenMP 5.2 15.3.1), so wait on the open groups too; the counts they leave
// are zero, and the group goes on collecting tasks after the barrier.
void drain_open_groups(const here& h, root_ctx* rc) {
    for (tgroup* g = rc->tg; g; g = g->parent)
        if (g->n.created || g->n.unreleased) wait_node(h, &g->n, &rc->n, true);
}

void drain(implicit_task* it, bool region_end) {
    if (region_end) done_with_region(it);
    auto* rc = static_cast<root_ctx*>(it->tasking);
    if (!rc) return;
    if (rc->tg) drain_open_groups(here{this_thread(), rc}, rc);
    if (rc->phase_tasks || rc->n.created || rc->n.unreleased) {
        here h{this_thread(), rc};
        wait_node(h, &rc->n, &rc->n, true);
        rc->n.remote.store(0, std::memory_order_relaxed);
        if (rc->phase_tasks) {
            rc->phase_tasks = false;
            if (rc->tm) rc->tm->tasks.busy.fetch_sub(1, std::memory_order_acq_rel);
        }
    }
    if (region_end) {
        if (rc->deps) deps::free_hash(rc->deps);
        it->tasking = nullptr;
        delete rc;
    }
}

// A member waiting in a barrier: run a task of the team from this worker's deque, or,
// while some member still has tasks, lend the worker to the scheduler for a while.
bool run_one(implicit_task* it) {
    team* t = it->tm;
    if (!t) return false;
    if (ext::task* task = pop_team_task(t)) {
        // A lingering member (member.cpp) is still the one of the region it served: a
        // task of the team's next region waits until it has begun that one.
        if (!member_began(t, it->tid)) [[unlikely]] {
            put_back(task);
            return false;
        }
        execute(task, false, false);
        return true;
    }
    if (t->tasks.busy.load(std::memory_order_acquire) == 0) return false;
    // The wake-up below is a task on this worker: a wait that blocked the thread (no
    // fiber to park on: the address space is full) would never see it run.
    if (!ext::can_park_now()) return false;
    // Until this wait ends (end_wait) the member parks again and again, and its worker
    // runs its mailbox each time: tasks that workers outside the team took may go there.
    // Not for a context that blocks its thread once the spin budget is spent.
    if (const std::uint64_t bit = lending_bit(it); bit && context_is_tied()) lend(t, bit);
    // Park; a low-priority task wakes us once this worker finds no normal work, or the
    // worker does when it takes a task of a region this member has not begun (it lends
    // while lingering after the region it served: member.cpp).
    ext::wait_slot s;
    lend_wake* lw = lend_wake::make(&s);
    member_slot& ms = t->slots[it->tid];
    ms.lend_wake.store(lw, std::memory_order_relaxed);  // read on this worker only
    ext::submit(ext::make_task([lw] { lw->wake(); lw->release(); }, loom::priority::low));
    park(s);
    ms.lend_wake.store(nullptr, std::memory_order_relaxed);
    lw->release();
    return true;
}

void end_wait(implicit_task* it) {
    team* t = it->tm;
    if (!t || it->tid >= 64) return;
    if (it->tid == 0 && it->region_ending) {  // the master's join: the region is over
        it->region_ending = false;
        // Bits its own join wait set (run_one). Written only when some member lent its
        // worker: a store every join would take the line from the members that read
        // `busy` beside it.
        if (t->tasks.lending.load(std::memory_order_relaxed) != 0)
            t->tasks.lending.store(0, std::memory_order_release);
        return;
    }
    const std::uint64_t bit = std::uint64_t{1} << it->tid;
    if (t->tasks.lending.load(std::memory_order_relaxed) & bit)
        t->tasks.lending.fetch_and(~bit, std::memory_order_acq_rel);
}

struct install {
    install() {
        g_task_hooks.run_one = &run_one;
        g_task_hooks.drain = &drain;
        g_task_hooks.wait_end = &end_wait;
    }
} g_install;

}  // namespace
}  // namespace loom::omp::tasking
