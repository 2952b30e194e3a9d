// The omp_* routines of OpenMP 5.2 about threads, teams, levels, schedules, nesting,
// devices and time (affinity routines: affinity.cpp; allocators: alloc.cpp; locks
// belong to lock*.cpp), and the runtime-level requests of routines.hpp.
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <climits>

#include "abi.hpp"
#include "env/env.hpp"
#include "env/icv.hpp"
#include "parallel/lifecycle.hpp"
#include "tasking/task.hpp"
#include "parallel/team.hpp"
#include "ompt/events.hpp"
#include "parallel/thread.hpp"
#include "routines/routines.hpp"
#include "parallel/fork.hpp"
#include "parallel/promised.hpp"

using namespace loom::omp;

namespace {

// The task at nesting level `level` on the path from the calling task to the root.
implicit_task* at_level(int level) {
    implicit_task* it = current_task();
    if (level < 0 || level > it->level) return nullptr;
    while (it && it->level > level) it = it->parent;
    // Several tasks can share a level inside a teams region (the league task keeps its
    // parent's level); the innermost one at that level is meant.
    return it;
}

}  // namespace

namespace loom::omp {

// An explicit task that changes an ICV has its own copy in its implicit task's place
// while it runs (tasking::writable_icvs), so the implicit task's ICVs are the running
// task's.
int thread_limit_of(const thread_state*, const implicit_task* it) noexcept {
    return it->icv.thread_limit;
}

}  // namespace loom::omp

LOOM_OMP_API void omp_set_num_threads(int n) {
    implicit_task* it = current_task();
    if (n <= 0) {
        warn("omp_set_num_threads(%d): the number of threads must be positive; keeping %d", n,
             it->icv.nthreads > 0 ? it->icv.nthreads : default_nthreads_var());
        return;
    }
    task_icvs& icv = writable_icvs();
    icv.nthreads = n;
    icv.nthreads_from_list = false;
}
LOOM_OMP_API void ompc_set_num_threads(int n) { omp_set_num_threads(n); }

LOOM_OMP_API int omp_get_num_threads() { return current_task()->nthreads; }

// A loom task outside any region (OpenMP code called from a task): a region it enters
// gets only idle workers (never more threads than workers), so the routine announces
// the team such a region gets, and claims those workers for it (promised.hpp).
// Libraries size their regions by it and some need every member they ask for: OpenMP
// OpenBLAS's threads wait for one another, and a smaller team than announced never ends.
// A thread outside the pool gets nthreads-var, and when the program asked, its regions
// are not cut by the count of outside masters from then on (outside_masters.hpp).
int loom::omp::max_threads(bool program_asks) {
    thread_state* th = this_thread();
    implicit_task* it = th->current;
    int n = it->icv.nthreads > 0 ? it->icv.nthreads : default_nthreads_var();
    if (int tl = thread_limit_of(th, it); tl > 0) n = std::min(n, tl);
    if (n > 1 && it == &th->initial) {
        if (entered_from_loom_task(th, it))
            n = 1 + promise_idle_workers(th, n - 1);
        else if (program_asks)
            th->sized_by_max_threads = true;
    }
    return n;
}

LOOM_OMP_API int omp_get_max_threads() { return max_threads(true); }

LOOM_OMP_API int omp_get_thread_num() { return current_task()->tid; }

// The processors available to the process, counted once before the pool starts (as
// libomp's __kmp_avail_proc): binding a thread (OMP_PROC_BIND, LOOM_PIN) changes that
// thread's mask, not what the process may use.
LOOM_OMP_API int omp_get_num_procs() {
    return static_cast<int>(process_cpu_count());
}

LOOM_OMP_API int omp_in_parallel() { return current_task()->active_level > 0; }

LOOM_OMP_API void omp_set_dynamic(int flag) { writable_icvs().dynamic = flag != 0; }
LOOM_OMP_API void ompc_set_dynamic(int flag) { omp_set_dynamic(flag); }
LOOM_OMP_API int omp_get_dynamic() { return current_task()->icv.dynamic; }

LOOM_OMP_API int omp_get_cancellation() { return globals().cancellation; }

LOOM_OMP_API void omp_set_nested(int flag) {
    writable_icvs().max_active_levels = flag ? INT_MAX : 1;
}
LOOM_OMP_API void ompc_set_nested(int flag) { omp_set_nested(flag); }
LOOM_OMP_API int omp_get_nested() { return current_task()->icv.max_active_levels > 1; }

LOOM_OMP_API void omp_set_schedule(int kind, int chunk) {
    sched_icv s;
    unsigned k = static_cast<unsigned>(kind);
    s.monotonic = (k & omp_sched_monotonic) != 0;
    int base = static_cast<int>(k & ~omp_sched_monotonic);
    // 101: libomp's kmp_sched_trapezoidal (kmp.h), accepted and served like guided.
    if ((base < omp_sched_static || base > omp_sched_auto) && base != 101) {
        warn("omp_set_schedule: unknown kind %d; using static", kind);
        base = omp_sched_static;
    }
    s.kind = base;
    if (base == omp_sched_auto) chunk = 0;
    else if (chunk < 1) chunk = base == omp_sched_static ? 0 : 1;
    s.chunk = chunk;
    writable_icvs().sched = s;
}
LOOM_OMP_API void ompc_set_schedule(int kind, int chunk) { omp_set_schedule(kind, chunk); }

LOOM_OMP_API void omp_get_schedule(int* kind, int* chunk) {
    const sched_icv& s = current_task()->icv.sched;
    if (kind) *kind = static_cast<int>(static_cast<unsigned>(s.kind) |
                                       (s.monotonic ? omp_sched_monotonic : 0u));
    if (chunk) *chunk = s.chunk;
}

LOOM_OMP_API int omp_get_thread_limit() {
    thread_state* th = this_thread();
    int tl = thread_limit_of(th, th->current);
    return tl > 0 ? tl : INT_MAX;
}

// thread_limit clause of a target construct: clang calls this first thing in the
// target task's entry (host fallback), so it belongs to the innermost explicit task's
// data environment and ends with it (a target region is a new contention group: its
// limit replaces the encountering task's, as libomp's __kmpc_set_thread_limit does).
void loom::omp::set_target_thread_limit(int limit) {
    if (limit <= 0) return;
    writable_icvs().thread_limit = limit;
}

LOOM_OMP_API int omp_get_supported_active_levels() { return INT_MAX; }

LOOM_OMP_API void omp_set_max_active_levels(int levels) {
    if (levels < 0) {
        warn("omp_set_max_active_levels(%d): the value must not be negative; ignored", levels);
        return;
    }
    writable_icvs().max_active_levels = levels;
}
LOOM_OMP_API void ompc_set_max_active_levels(int levels) { omp_set_max_active_levels(levels); }
LOOM_OMP_API int omp_get_max_active_levels() { return current_task()->icv.max_active_levels; }

LOOM_OMP_API int omp_get_level() { return current_task()->level; }
LOOM_OMP_API int omp_get_active_level() { return current_task()->active_level; }

LOOM_OMP_API int omp_get_ancestor_thread_num(int level) {
    implicit_task* it = at_level(level);
    return it ? it->tid : -1;
}
LOOM_OMP_API int ompc_get_ancestor_thread_num(int level) { return omp_get_ancestor_thread_num(level); }

LOOM_OMP_API int omp_get_team_size(int level) {
    implicit_task* it = at_level(level);
    return it ? it->nthreads : -1;
}
LOOM_OMP_API int ompc_get_team_size(int level) { return omp_get_team_size(level); }

// omp_in_final, omp_in_explicit_task: task.cpp

LOOM_OMP_API int omp_get_max_task_priority() { return globals().max_task_priority; }

// ---- teams ----------------------------------------------------------------------------

LOOM_OMP_API int omp_get_num_teams() { return current_task()->num_teams; }
LOOM_OMP_API int omp_get_team_num() { return current_task()->team_num; }

LOOM_OMP_API void omp_set_num_teams(int n) {
    if (n <= 0) {
        warn("omp_set_num_teams(%d): the value must be positive; ignored", n);
        return;
    }
    globals().num_teams = n;
}
LOOM_OMP_API int omp_get_max_teams() { return globals().num_teams; }

LOOM_OMP_API void omp_set_teams_thread_limit(int n) {
    if (n <= 0) {
        warn("omp_set_teams_thread_limit(%d): the value must be positive; ignored", n);
        return;
    }
    globals().teams_thread_limit = n;
}
LOOM_OMP_API int omp_get_teams_thread_limit() { return globals().teams_thread_limit; }

// ---- devices: the host is the only device ----------------------------------------------

LOOM_OMP_API void omp_set_default_device(int d) { writable_icvs().default_device = d; }
LOOM_OMP_API int omp_get_default_device() { return current_task()->icv.default_device; }
LOOM_OMP_API int omp_get_num_devices() { return 0; }
LOOM_OMP_API int omp_get_device_num() { return 0; }
LOOM_OMP_API int omp_get_initial_device() { return 0; }
LOOM_OMP_API int omp_is_initial_device() { return 1; }
// Without a tool: omp_control_tool_notool (-2); with one, the tool's control_tool
// callback answers (omp_control_tool_nocallback, -1, when it registered none).
LOOM_OMP_API int omp_control_tool(int command, int modifier, void* arg) {
    if (!ompt::on()) return -2;
    LOOM_OMPT_ENTER();
    return ompt::control_tool(command, modifier, arg, LOOM_OMPT_RA);
}
int loom::omp::target_offload_kind() {
    switch (globals().target_offload) {
        case 1: return 0;
        case 2: return 2;
        default: return 1;
    }
}

// ---- time ---------------------------------------------------------------------------------

LOOM_OMP_API double omp_get_wtime() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

LOOM_OMP_API double omp_get_wtick() {
    timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    double r = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    return r > 0 ? r : 1e-9;
}

// ---- resources -----------------------------------------------------------------------------

LOOM_OMP_API int omp_pause_resource(int kind, int device) {
    if (device != omp_get_initial_device()) return -1;
    return pause_resources(kind);
}
int loom::omp::pause_resources(int kind) {
    if (kind != 1 && kind != 2) return -1;  // omp_pause_soft, omp_pause_hard
    return pause_pool();
}
LOOM_OMP_API int omp_pause_resource_all(int kind) { return pause_resources(kind); }
