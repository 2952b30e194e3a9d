// Per-OS-thread state and the implicit-task descriptor. Every OS thread that enters
// the OpenMP layer (worker, initial thread or foreign thread) gets a thread_state with
// a dense global thread id (gtid); its `current` implicit task says which team, level
// and ICVs the code running on it belongs to.
//
// The only initial-exec TLS of libloom-omp is the one pointer behind this_thread(),
// so the library can be dlopen()ed late (docs/omp.md, "Process life").
#pragma once

#include "loom/ext/trace.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

#include "abi.hpp"
#include "env/icv.hpp"
#include "omp-tools.h"

namespace loom::omp {

struct team;
namespace tasking {
struct tdata;
}

/// Private state of the dynamic (dispatch) loop an implicit task is in (dispatch.cpp).
struct dispatch_buffer;

struct loop_state {
    std::uint32_t construct = 0;  // construct number (task's ws_count when it began)
    dispatch_buffer* buf = nullptr;  // the team's buffer serving it (dynamic kinds, ordered)
    int kind = 0;                 // resolved kind (dispatch.cpp)
    bool ordered = false;
    bool serial_done = false;     // team of one: the whole range was handed out
    bool ordered_done = false;    // the current iteration executed its ordered region
    std::uint8_t shared_kind = 0;  // unordered dynamic (2), guided (3), stealing (7) team loop
    std::uint64_t trip = 0;       // iterations
    std::uint64_t chunk = 1;
    std::uint64_t next_static = 0;  // static kinds: this member's next chunk number
    std::uint64_t cur_iter = 0;   // ordered: normalised iteration being executed
    std::uint64_t chunk_end = 0;  // ordered: end of the current chunk
    std::uint64_t lb = 0;         // first iteration (raw bits of the loop's type)
    std::int64_t st = 1;          // stride
    // A gcc ull loop whose step does not fit a signed 64-bit step (|step| >= 2^63:
    // gomp/loop_dispatch.hpp): the dispatch hands out iteration numbers 0..trip-1,
    // mapped back to values as base + i * step.
    bool scaled = false;
    std::uint64_t scaled_base = 0, scaled_step = 0, scaled_end = 0, scaled_trip = 0;
};

/// One implicit task (or the initial task of a thread). Lives in its team's member
/// slot, in the encountering thread's frame (serialized regions) or in thread_state.
// A worker outside the team that runs one of its explicit tasks acts as a member
// through a stand-in record holding the member's identity (standin_identity in
// tasking/task.cpp): a field a task needs to see there is copied in that list.
struct implicit_task {
    team* tm = nullptr;            // null: a team of one (initial task, serialized region)
    implicit_task* parent = nullptr;  // the task that encountered the region
    int tid = 0;
    int nthreads = 1;
    int level = 0;
    int active_level = 0;
    int team_num = 0;              // teams construct (host league)
    int num_teams = 1;
    bool in_league = false;        // inside a teams region
    bool holds_claim = false;      // owns the claim of the worker it runs on
    bool region_ending = false;    // member 0 only: its next barrier-wait end is the join
    // Done with its share of the current region: its worker runs its mailbox soon
    // (lending_worker in tasking/task_runner.cpp). Written by the member, read by other workers: only
    // through std::atomic_ref (a plain bool keeps the record copyable for stand-ins).
    bool share_done = false;
    int worker = -1;
    // The initial task of a target region run on the host (gomp/target.cpp): like a
    // league's team, the root of a contention group of its own, nested in OpenMP code.
    bool target_root = false;
    // Contention-group root only (cg_root, fork.cpp): the threads beyond the
    // encountering ones that the group's active teams hold (ThreadsBusy - 1 of the
    // specification's thread-count algorithm). Only through std::atomic_ref.
    int cg_busy = 0;
    task_icvs icv;
    std::uint32_t ws_count = 0;    // dynamic loops begun in the current region
    std::uint32_t single_count = 0;
    // gcc's shared `mem` block of the worksharing construct the member is in, null
    // when none (gomp/workshare.cpp).
    void* gomp_mem = nullptr;
    int reduce_method = 0;
    loop_state loop;
    void* tasking = nullptr;       // explicit-task context (task.cpp), made on demand
    // OMPT (ompt/): the tool's data of this implicit task, its frame, and of the region
    // it belongs to when that has no team record (initial task, serialized region).
    ompt_data_t ompt_task{};
    ompt_data_t ompt_parallel{};
    ompt_frame_t ompt_frame{};
    // OMPT: the explicit task that encountered the region (null: `parent` itself), the
    // next task out in ompt_get_task_info's ancestry. Set only while a tool is active.
    tasking::tdata* ompt_encountering = nullptr;
    // OMPT: a member waiting in its region's implicit barrier (member.cpp): its share is
    // done but its implicit task has not ended, so tasks its worker runs meanwhile run
    // inside it (ompt::stand_in; atomic_ref, as share_done).
    bool ompt_in_join = false;
};

/// State of one OS thread known to the runtime.
struct thread_state {
    kmp_int32 gtid = 0;
    implicit_task* current = nullptr;
    implicit_task initial;          // the thread's initial task (level 0)
    int pushed_nthreads = 0;        // __kmpc_push_num_threads, consumed by the next fork
    const std::vector<int>* pushed_list = nullptr;  // __kmpc_push_num_threads_list (> 1 entry)
    int pushed_severity = 0;        // strict num_threads: 1 warning, 2 fatal; 0 not strict
    const char* pushed_message = nullptr;
    ident_t* pushed_loc = nullptr;
    int pushed_bind = -1;           // __kmpc_push_proc_bind
    bool pushed_bind_sets_icv = false;  // push_proc_bind's sets_bind_var
    int pushed_teams = 0;           // __kmpc_push_num_teams
    int pushed_teams_threads = 0;
    int pushed_teams_lb = 0;        // __kmpc_push_num_teams_51's lower bound
    // Idle workers that omp_get_max_threads() claimed in a loom task for the region
    // this thread enters next (parallel/promised.cpp): held until that fork uses them.
    std::vector<int> promised_workers;
    bool holds_task_region = false;  // the one multi-thread region from tasks (promised.cpp)
    static constexpr int hot_levels = 4;
    team* hot[hot_levels] = {};     // cached teams this thread forks at each level
    std::uint64_t affinity_shown = 0;  // OMP_DISPLAY_AFFINITY: last team shape shown
    // A thread outside the pool that runs regions (parallel/outside_masters.cpp): its
    // bit among the recent masters (-1: none was free), whether it is in one now.
    static constexpr int no_outside_slot = -2;
    int outside_slot = no_outside_slot;
    bool outside_in_region = false;
    // It asked omp_get_max_threads() outside a region: it may size its regions by the
    // answer, so the outside-master count never cuts them.
    bool sized_by_max_threads = false;
    // Taskyields of this thread that skip their wait for a child being published, and
    // how many the next fruitless wait makes skip (run_held_child, tasking/task_yield.cpp).
    std::uint32_t yield_waits_skipped = 0;
    std::uint32_t yield_wait_backoff = 0;
    // The context running on this thread now (with `current`, its context_view):
    bool in_member = false;         // a member task, submitted to this worker (tied)
    std::uintptr_t native_lo = 0;   // this OS thread's own stack [lo, hi): the slot-0
    std::uintptr_t native_hi = 0;   // thread's native context is tied to worker 0
    // The stack GOMP_parallel_start forks on (gomp/parallel_start.cpp): it never leaves
    // this thread either, so a context on it is as tied as the native one.
    std::uintptr_t side_lo = 0;
    std::uintptr_t side_hi = 0;
    // OMPT (ompt/): the tool's thread data and what ompt_get_state reports.
    ompt_data_t ompt_thread{};
    int ompt_state = 0;
    std::uint64_t ompt_wait_id = 0;
    int ompt_loop_work = 0;  // OMPT: work type of the dispatched loop it is in, 0: none
    bool ompt_reduce_open = false;  // a reported reduction ends at __kmpc_end_reduce*
    // OMPT: an initial thread (gtid 0, or a thread outside the pool that entered
    // OpenMP): its initial task's end comes before its thread_end.
    bool ompt_initial = false;
    // OMPT: the tasks the tool was told this thread runs, in the order it returns to
    // them (ompt/scheduled_task.hpp). Used only while a tool is active.
    std::vector<std::uint64_t> ompt_view;
};

/// What the context running on a thread keeps in the thread's state: the implicit task
/// it runs and whether it is a member task. A context that parks keeps its own and,
/// while parked, presents the thread to the contexts its worker runs meanwhile as
/// outside every region (wait.cpp's park_scope, tasking::park). The two go together:
/// tasking::park once kept only `current`, and a member came back with another
/// context's `in_member` (tests/omp/nested_in_tasks_at_barrier.c).
struct context_view {
    implicit_task* current;
    bool in_member;

    static context_view of(const thread_state* th) noexcept { return {th->current, th->in_member}; }
    static void present_outside(thread_state* th) noexcept {
        th->current = &th->initial;
        th->in_member = false;
    }
    void restore(thread_state* th) const noexcept {
        th->current = current;
        th->in_member = in_member;
    }
};

/// The calling thread's state, registering the thread on first use. Not inlined on
/// purpose (see DESIGN.md: no TLS address may be kept across a suspension point).
thread_state* this_thread();
/// The calling thread's current implicit task.
implicit_task* current_task();

/// The pointer behind this_thread(); null until the thread entered the runtime. Read
/// directly only by code that reaches no suspension point before it returns (the
/// per-chunk dispatch path): elsewhere the compiler could keep its TLS address across
/// a suspension that resumes on another OS thread. `__thread`: no dynamic
/// initialisation, so reading it needs no TLS wrapper call.
extern __thread thread_state* tl_state __attribute__((tls_model("initial-exec")));

inline thread_state* this_thread_no_suspend() {
    thread_state* th = tl_state;
    return __builtin_expect(th != nullptr, 1) ? th : this_thread();
}
/// this_thread() read inline: only for functions that reach no suspension point before
/// they return (see tl_state below), such as the out-of-line current_here().
inline thread_state* this_thread_no_suspend();

/// Like this_thread() but null if the thread never entered the runtime.
thread_state* this_thread_if_known() noexcept;
/// Registers the calling thread (a hidden helper) with a gtid held back for it.
thread_state* register_held_thread(kmp_int32 gtid);
/// Number of thread states handed out and still alive.
int known_threads() noexcept;
/// After fork(): forget every thread but the caller (lifecycle.cpp).
void reset_threads_after_fork() noexcept;

/// thread-limit-var of the code running in `it` on `th` (0: none).
int thread_limit_of(const thread_state* th, const implicit_task* it) noexcept;
/// Invokes an outlined region body with `argc` pointer arguments. With `exit_frame`
/// (only while a tool is active), the frame of the runtime function that calls the
/// body is that implicit task's exit_frame while the body runs (OMPT).
void invoke_microtask(kmpc_micro fn, kmp_int32 gtid, kmp_int32 tid, int argc, void** args,
                      ompt_frame_t* exit_frame = nullptr);

/// LOOM_TRACE: the psource of the region the calling thread forks next (set by the
/// fork entry points only while tracing).
extern thread_local const char* t_fork_psource;

/// LOOM_TRACE: an implicit task's slice on its worker's track, named after its
/// construct; nothing when tracing is off.
struct traced_slice {
    bool on;
    explicit traced_slice(const char* psource) noexcept : on(ext::tracing()) {
        if (on) ext::trace_begin(psource ? psource : "omp parallel");
    }
    ~traced_slice() {
        if (on) ext::trace_end();
    }
    traced_slice(const traced_slice&) = delete;
    traced_slice& operator=(const traced_slice&) = delete;
};

}  // namespace loom::omp
