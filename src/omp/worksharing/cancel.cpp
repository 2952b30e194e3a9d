// Cancellation of parallel, for and sections regions (OMP_CANCELLATION).
// A request is one CAS on the team's cancel word; cancellation points read it.
// __kmpc_cancel_barrier returns 1 only for a cancelled parallel region (the compiled
// code then leaves the region); a cancelled loop or sections construct is cleared at
// its closing barrier, and the barrier returns 0 so the region goes on.
// kmp_get_cancellation_status (a kmp_* routine of both ABIs) is here too.
#include "worksharing/cancel.hpp"

#include <atomic>

#include "abi.hpp"
#include "sync/barrier.hpp"
#include "worksharing/dispatch.hpp"
#include "env/icv.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

bool request_cancel(int kind) {
    if (!globals().cancellation) return false;
    if (kind == cancel_taskgroup)
        return g_task_hooks.cancel_taskgroup && g_task_hooks.cancel_taskgroup(true) != 0;
    if (kind != cancel_parallel && kind != cancel_loop && kind != cancel_sections) return false;
    implicit_task* it = current_task();
    team* t = it->tm;
    if (!t) return true;
    if (kind == cancel_loop) abandon_loop(it);
    int expected = cancel_noreq;
    if (kind != cancel_parallel)
        return t->cancel_request.compare_exchange_strong(expected, kind,
                                                         std::memory_order_acq_rel) ||
               expected == kind;
    // Cancelling the region supersedes a pending loop or sections cancellation (the
    // members must leave the region, not just the construct). seq_cst: the waiters of
    // a cancellable barrier load it seq_cst before they sleep (wait.hpp protocol).
    if (t->cancel_request.exchange(cancel_parallel, std::memory_order_seq_cst) != cancel_parallel)
        g_cancelled_regions.fetch_add(1, std::memory_order_relaxed);
    // Members asleep in a cancellable barrier leave it now: with gcc's code the
    // canceller never arrives there (it jumps to the region's end), so the barrier
    // would never complete.
    for (int i = 0; i < t->nthreads; ++i)
        if (i != it->tid) wake(t->slots[i].sleep);
    return true;
}

bool cancellation_point(int kind) {
    if (!globals().cancellation) return false;
    if (kind == cancel_taskgroup)
        return g_task_hooks.cancel_taskgroup && g_task_hooks.cancel_taskgroup(false) != 0;
    team* t = current_task()->tm;
    if (!t) return false;
    return t->cancel_request.load(std::memory_order_acquire) == kind;
}

// Relaxed loads: read for every task construct of a cancellable program, and nothing
// the skip depends on is published through them; seeing a request late runs the task
// as if it had been met before the cancel construct, which the specification allows.
bool new_task_cancelled() {
    if (!globals().cancellation) return false;
    if (team* t = current_task()->tm;
        t && t->cancel_request.load(std::memory_order_relaxed) == cancel_parallel)
        return true;
    return cancellation_point(cancel_taskgroup);
}

bool cancel_barrier(implicit_task* it) {
    team* t = it->tm;
    if (!t || !globals().cancellation) {
        team_barrier(it);
        return false;
    }
    // A cancelled region's members leave at their next cancellation point without
    // arriving: a member that left earlier (the canceller, with gcc's code) never will.
    if (t->cancel_request.load(std::memory_order_acquire) == cancel_parallel) return true;
    if (!team_barrier_unless_cancelled(it)) return true;
    // The request as the barrier completed, the same for every member: the live word
    // may already hold the next construct's request from a member that left the
    // barrier first (gcc's loops end with GOMP_barrier; read live, a slow member took a
    // later loop's `cancel for` for this one's, and its extra barriers paired with the
    // next construct's: libgomp cancel-for-2.c lost a member's chunk of a later loop).
    const int r = t->cancel_at_barrier.load(std::memory_order_acquire);
    if (r == cancel_parallel || t->cancel_request.load(std::memory_order_acquire) == cancel_parallel)
        return true;
    if (r == cancel_loop || r == cancel_sections) {
        // Nobody starts the next construct before every member is here; then member 0
        // ends this construct's cancellation. A CAS: a request to cancel the region
        // (from a task running in the barrier) must not be wiped.
        if (!team_barrier_unless_cancelled(it)) return true;
        if (it->tid == 0) {
            int expected = r;
            t->cancel_request.compare_exchange_strong(expected, cancel_noreq,
                                                      std::memory_order_acq_rel);
        }
        if (!team_barrier_unless_cancelled(it)) return true;
    }
    return false;
}

}  // namespace loom::omp

using namespace loom::omp;

LOOM_OMP_API int kmp_get_cancellation_status(int kind) {
    if (!globals().cancellation) return 0;
    team* t = current_task()->tm;
    return t && t->cancel_request.load(std::memory_order_acquire) == kind ? 1 : 0;
}
