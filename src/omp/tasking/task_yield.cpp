// taskyield: a scheduling point where the yielding task lets queued work run. It runs
// a child of its task that is on top of its worker's deque, or, with nothing queued, one
// that a worker outside the team holds for a member (held_tasks.hpp).
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "ompt/events.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"
#include "tasking/held_tasks.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

namespace {
// How long a member at a taskyield with nothing queued looks for a child that a worker
// outside the team took from its deque and has not published yet (runner_for's first
// step: a worker woken on a loaded machine may lose its CPU between its steal and
// that). A wait that found nothing makes the thread's next taskyields skip theirs,
// twice as many each time up to yield_backoff_max, and one that found a child ends
// that: a loop of `task; taskyield` whose children the other member steals took 111 ms
// instead of 1.15 when each taskyield waited, 2.2 ms with the backoff capped at 1024
// and counted per region.
constexpr std::chrono::microseconds yield_grace{50};
constexpr std::uint32_t yield_backoff_max = 65536;

// Nothing is queued on this worker, but a child of the running task that a worker
// outside the team took waits for a member's scheduling point (runner_for), and this
// taskyield is one: run it here. On libomp only the team's threads take its tasks, so
// the yielding thread would have found it in its own deque.
void run_held_child(const here& h) {
    team* tm = h.rc->tm;
    if (!tm || h.rc->standin || !h.rc->smaller_than_pool) return;  // no worker outside the team
    node* n = current_node(h);
    if (n->created == 0) return;  // no child of ours is out
    ext::task* rec = held::take(tm, n);
    if (!rec) {
        thread_state& th = *h.th;
        if (th.yield_waits_skipped > 0) {
            --th.yield_waits_skipped;
            return;
        }
        const auto grace_end = std::chrono::steady_clock::now() + yield_grace;
        for (unsigned k = 1; !(rec = held::take(tm, n)); ++k) {
            spin_pause();
            if (k % 16 == 0 && std::chrono::steady_clock::now() > grace_end) {
                th.yield_wait_backoff = std::min(std::max(1u, 2 * th.yield_wait_backoff), yield_backoff_max);
                th.yield_waits_skipped = th.yield_wait_backoff;
                return;
            }
        }
        th.yield_wait_backoff = 0;
    }
    if (ompt::on()) [[unlikely]]
        ompt::next_switch_is_yield();
    execute(rec, true, false);
}
}  // namespace

void task_yield() {
    // A scheduling point: let queued work run (this context goes behind it).
    ext::task* t = ext::pop_local();
    if (!t) {
        run_held_child(current_here());
        return;
    }
    if (is_omp_task(t)) {
        here h = current_here();
        node* n = current_node(h);
        if (parent_node(t) == n) {
            t->flags |= f_bounced;
            if (ompt::on()) [[unlikely]]
                ompt::next_switch_is_yield();
            execute(t, true, false);
            return;
        }
    }
    ext::push_local(t);
}

}  // namespace loom::omp::tasking
