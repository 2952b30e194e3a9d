// Which worker runs an explicit task that a worker took from a queue (task_runner.hpp).
#include "tasking/task_runner.hpp"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "loom/ext/scheduler.hpp"
#include "sync/wait.hpp"
#include "tasking/held_tasks.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

namespace {
// The slot of `tm` whose member runs on worker `w`, or -1.
int slot_on(const team* tm, int w) noexcept {
    for (int i = 0; i < tm->nthreads; ++i)
        if (tm->slots[i].worker == w) return i;
    return -1;
}
}  // namespace

implicit_task* member_on(team* tm, int w) noexcept {
    const int i = slot_on(tm, w);
    return i >= 0 && member_began(tm, i) ? &tm->slots[i].task : nullptr;
}

bool runs_here(ext::task* rec, int w) noexcept {
    team* tm = data_of(rec)->root->tm;
    return !tm || member_on(tm, w) != nullptr;
}

namespace {
// The worker of a member whose context is parked (lending its worker) or that is done
// with its share of the region, or -1.
int lending_worker(team* tm) noexcept {
    // A member whose wait blocks its thread serves no mailbox until it wakes.
    auto serves = [&](int i) {
        return tm->slots[i].worker >= 0 && member_began(tm, i) &&
               !tm->slots[i].sleep.blocks_worker.load(std::memory_order_acquire);
    };
    std::uint64_t lending = tm->tasks.lending.load(std::memory_order_acquire);
    while (lending) {
        const int i = __builtin_ctzll(lending);
        lending &= lending - 1;
        if (i < tm->nthreads && serves(i)) return tm->slots[i].worker;
    }
    const int n = std::min({tm->nthreads, tm->capacity, 64});
    for (int i = 0; i < n; ++i) {
        member_slot& s = tm->slots[i];
        if (serves(i) && std::atomic_ref(s.task.share_done).load(std::memory_order_acquire)) return s.worker;
    }
    return -1;
}

// Worker `w` took `rec`, a task of the region of `tm` that w's member (slot `i`) has
// not begun: the member's context waits on this worker, parked lending it while it
// lingers after the region it served (woken here: it must begin this one) or as a new
// member task in the mailbox, which the worker's loop looks at first. The task goes
// back on this worker's deque, for the member once it has begun, or for a thief.
void leave_for_member(team* tm, int i, ext::task* rec) noexcept {
    // Its context is parked on this worker, so its reference keeps the record alive.
    if (lend_wake* lw = tm->slots[i].lend_wake.load(std::memory_order_relaxed)) lw->wake();
    put_back(rec);
    spin_pause();  // a new member task may still be on its way to the mailbox
}
}  // namespace

// The worker that runs a task of a team which worker `w` took from the scheduler.
// Explicit tasks are executed by the threads of their team: a worker outside the team
// (the pool is larger than the team, or it belongs to another team) would run it under
// the identity of a member that may be running at the same time (omp_get_thread_num,
// per-thread slots, threadprivate). It hands the task to a member whose context is
// parked (a barrier, taskwait, taskgroup): that member's worker runs its mailbox
// before the member resumes. Until one parks (members are in their own code, which
// under libomp would not run the task either) it holds the task; after
// `hold_limit` it runs it here as a stand-in rather than stall longer.
//
// The task stays published to the team's members meanwhile (held_tasks.hpp), where a
// member at a taskyield in its parent takes it, and it is sent to a member's mailbox
// as a token, so that it stays visible until it starts. Once a member took it, the
// team may run it, end the region and be reused or freed: the holder reads the team
// only while the task is hidden from takers (publication::hide), i.e. still its own.
constexpr auto hold_limit = std::chrono::milliseconds(100);

int runner_for(ext::task* rec, int w) noexcept {
    team* tm = data_of(rec)->root->tm;
    if (!tm) return w;
    if (const int i = slot_on(tm, w); i >= 0) {
        if (member_began(tm, i)) return w;
        // This worker's member has not begun the region yet: holding the task here
        // would keep it from starting; sending it to another member would keep it
        // from them.
        leave_for_member(tm, i, rec);
        return handed_to_member;
    }
    held::publication held(tm, rec);  // first: a member at a taskyield looks for it there
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0;; ++i) {
        if (!held.hide()) return handed_to_member;
        const int r = lending_worker(tm);
        const bool give_up = r < 0 && (i & 63) == 63 && std::chrono::steady_clock::now() - start > hold_limit &&
                             !tm->tasks.members_only.load(std::memory_order_relaxed);
        held.show();
        if (r >= 0) {
            if (held.send_token(static_cast<unsigned>(r))) return handed_to_member;
            return held.withdraw() ? r : handed_to_member;
        }
        if (give_up) return held.withdraw() ? w : handed_to_member;
        if (i < 64) {
            spin_pause();
        } else {
            const timespec pause{0, 20000};
            nanosleep(&pause, nullptr);
        }
    }
}

}  // namespace loom::omp::tasking
