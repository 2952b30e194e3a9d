// CPUs taken by threads outside the pool that run parallel regions. The pool's workers
// stand for the machine's CPUs, one each; a thread that is no worker (a pthread of the
// program, a library's own thread) runs implicit task 0 of its regions on a CPU of its
// own, which the worker claims do not show. Counting those threads, a region of such a
// thread takes only as many members as leave workers plus outside masters within the
// pool: P pthreads on P CPUs each running regions of P threads then run their regions
// alone, as with one thread per region, instead of P masters and the workers they
// claim timesharing P CPUs (bench composition_regions: at P = 16, 5.5x the time of one
// thread per region before).
//
// A thread that asked omp_get_max_threads() outside a region is never cut so: code may
// size its regions by that answer (nthreads-var, which stays what it is) and need
// every thread of it, as OpenMP OpenBLAS does (its threads wait for one another; cut
// teams never ended). Its regions still count against the others'.
//
// A thread counts while it runs a top-level region and for 1 to 2 ms after it last
// began one: between two regions it still runs on its CPU, and a count of regions in
// flight alone missed every master the OS had preempted between two regions, whose
// CPU another master's member then kept (a stable 3 threads on 2 CPUs).
#pragma once

namespace loom::omp {

struct implicit_task;
struct thread_state;

/// Counts the calling thread `th` for the life of its region if it is outside the
/// pool (`worker` < 0) and the region is top-level (its nested regions are covered by
/// the one enclosing them).
class outside_master {
public:
    outside_master(thread_state* th, int worker, const implicit_task* parent) noexcept;
    ~outside_master();
    outside_master(const outside_master&) = delete;
    outside_master& operator=(const outside_master&) = delete;

    bool counted() const noexcept { return th_ != nullptr; }

    /// Members the region may have: `nworkers` CPUs less the outside masters active
    /// now (this one included) and the workers other teams hold; `own` is the number
    /// of workers this region's cached team holds already (its lingering members),
    /// which it may keep or give back.
    int members_allowed(int nworkers, int own) const noexcept;

private:
    thread_state* th_ = nullptr;
};

/// Thread `th` ends: it stops counting at once (a joined pthread uses no CPU).
void forget_outside_master(thread_state* th) noexcept;
/// fork() child: only the forking thread `th` (may be null) is left.
void reset_outside_masters_after_fork(thread_state* th) noexcept;

}  // namespace loom::omp
