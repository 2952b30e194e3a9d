// The OMPT event emitters: out of line, called only behind `if (ompt::on())` (ompt.hpp)
// at the event sites of both ABIs' paths. Each finds the tool data of the thread,
// parallel region and task concerned and calls the tool's callback if it registered
// one. events.cpp (threads, regions, implicit tasks, synchronisation, worksharing)
// and task_events.cpp (explicit tasks).
#pragma once

#include <cstdint>

#include "ompt/ompt.hpp"

namespace loom::ext {
struct task;
}
namespace loom::omp {
struct kmp_depend_info;
struct thread_state;
struct implicit_task;
struct team;
namespace tasking {
struct tdata;
}
}  // namespace loom::omp

namespace loom::omp::ompt {

// ---- threads and the initial task ---------------------------------------------------
void thread_begin(thread_state* th, ompt_thread_t type);
void thread_end(thread_state* th);
/// A thread registered: thread_begin (initial, worker or other), and for an initial
/// thread (the first, or one outside the pool) its initial task.
void thread_registered(thread_state* th);
/// A registered thread leaves (thread exit, or the tool's finalisation for the
/// initial thread): an initial thread's initial task end, then thread_end.
void thread_exiting(thread_state* th);
/// The initial task of an initial thread (its implicit parallel region of one).
void initial_task(thread_state* th, ompt_scope_endpoint_t endpoint);

// ---- parallel regions and implicit tasks -------------------------------------------
/// A region of `requested` threads encountered by `parent`; `pdata` is the region's
/// tool data (a team's, or a serialized region's child task's).
/// Returns the region's codeptr_ra, for parallel_end.
const void* parallel_begin(implicit_task* parent, ompt_data_t* pdata, int requested, int flags);
void parallel_end(implicit_task* parent, ompt_data_t* pdata, int flags, const void* ra);
/// Implicit task `it` (member `it->tid` of a region of `n` threads, region data `pdata`).
/// The initial task of team `index` of a league of `nteams` (data in `it`): implicit_task
/// with ompt_task_initial, as libomp reports each team of a teams construct.
void league_initial_task(implicit_task* it, ompt_data_t* league, ompt_scope_endpoint_t endpoint, int nteams,
                         int index);
void implicit_task_begin(implicit_task* it, ompt_data_t* pdata, int n);
void implicit_task_end(implicit_task* it, int n);

// ---- synchronisation -------------------------------------------------------------------
/// sync_region and sync_region_wait begin (or end) of `kind` in the calling task.
void sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra);
/// Only the region's bound (sync_region), or only its wait (sync_region_wait and the
/// thread's state): a taskgroup begins at its start and waits at its end.
void sync_region_bound(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra);
void sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra);
void mutex_acquire(ompt_mutex_t kind, unsigned hint, std::uint64_t wait_id, const void* ra);
void mutex_acquired(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra);
void mutex_released(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra);
void nest_lock(ompt_scope_endpoint_t endpoint, std::uint64_t wait_id, const void* ra);
void lock_init(ompt_mutex_t kind, unsigned hint, std::uint64_t wait_id, const void* ra);
void lock_destroy(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra);
void flush(const void* ra);
/// A mutex wait reported by mutex_acquire ended without the mutex (a failed test, a
/// nest lock the task already held): the thread's state goes back to work.
void mutex_released_wait();
/// The wait_id of an ordered region: its team (one ordered turn per team at a time).
std::uint64_t ordered_wait_id(implicit_task* it);

// ---- the lock routines with their events (lock_events.cpp) -----------------------------
void lock_init_traced(void* lk, std::uintptr_t hint, bool nest, const char* routine, const void* ra);
void lock_destroy_traced(void* lk, bool nest, const char* routine, const void* ra);
void lock_set_traced(void* lk, const char* routine, const void* ra);
void lock_unset_traced(void* lk, const char* routine, const void* ra);
int lock_test_traced(void* lk, const char* routine, const void* ra);
int nest_lock_set_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra);
void nest_lock_unset_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra);
int nest_lock_test_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra);

// ---- worksharing, masked, cancellation ----------------------------------------------
void work(ompt_work_t type, ompt_scope_endpoint_t endpoint, std::uint64_t count, const void* ra);
/// A dispatched worksharing loop (kmpc schedule `schedule`, `count` iterations) begins
/// for the calling member: work begin typed as libomp types it (loop_static, _dynamic,
/// _guided or _other; schedule(runtime) resolved, a team of one's guided loop static),
/// remembered for loop_work_end.
void loop_work_begin(int schedule, std::uint64_t count, const void* ra);
/// The loop loop_work_begin reported ends for the calling member (nothing if none began).
void loop_work_end(const void* ra);
void dispatch(ompt_dispatch_t kind, std::uint64_t start, std::uint64_t iterations);
/// A chunk of task `task` (in implicit task `it`'s region) begins.
void dispatch_chunk(implicit_task* it, ompt_data_t* task, ompt_dispatch_t kind, ompt_dispatch_chunk_t chunk);
/// A section begins: its instance is the construct's codeptr_ra.
void dispatch_section(const void* ra);
void masked(ompt_scope_endpoint_t endpoint, const void* ra);
void cancel(int flags, const void* ra);
/// cancel of the construct of cancel_kind `kind` (abi.hpp) in the calling task; `how`:
/// ompt_cancel_activated (a request that took effect) or ompt_cancel_detected (a
/// cancellation point that found the construct cancelled).
void cancel_construct(int kind, int how, const void* ra);
/// omp_control_tool: the tool's answer, -1 if it registered no control_tool callback.
int control_tool(int command, int modifier, void* arg, const void* ra);
/// The error directive (severity 1 warning, 2 fatal), before loom reports it.
void error(int severity, const char* message, const void* ra);
/// A reduction of the calling task (__kmpc_reduce*) begins or ends.
void reduction(ompt_scope_endpoint_t endpoint, const void* ra);

// ---- explicit tasks (task_events.cpp) ----------------------------------------------------
/// The explicit task running in implicit task `it` (null: `it` itself), which encounters
/// a region forked there.
tasking::tdata* encountering_task(implicit_task* it);
/// The tool data of the running task (explicit or implicit) of the calling thread.
ompt_data_t* current_task_data();
ompt_frame_t* current_task_frame();
/// Task `d` was created by the running task.
void task_create(tasking::tdata* d, int flags, bool has_deps, const void* ra);
/// Switch from the running task (`from`, null: the implicit task) to `to` and back.
void task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next);
ompt_data_t* task_data_of(tasking::tdata* d);
ompt_frame_t* task_frame_of(tasking::tdata* d);
/// An undeferred task `d` of the task `prev` (null: the implicit task `it`) runs in
/// the entry point whose frame is `frame`: the encountering task's enter_frame and
/// `d`'s exit_frame (both cleared with frame = null when it ends).
void undeferred_frames(tasking::tdata* prev, implicit_task* it, tasking::tdata* d, void* frame);
/// Task `rec` is launched (task_create); `undeferred`: if(0), run by its creator now.
void task_launched(ext::task* rec, bool undeferred);
/// The running context switches to explicit task `d` (which ran `prev`, null: the
/// implicit task `it`): task_schedule; returns what `d` goes back to, for switch_out
/// (return_target).
ompt_data_t* task_switch_in(tasking::tdata* prev, implicit_task* it, tasking::tdata* d);
/// A worker runs a task of a team from its scheduler loop with `si`, a copy of the
/// implicit task of `member` (its own member context of the team, parked; or null: it
/// is none, and `si` copies the creator's): keeps the copied tool data only where it
/// names a context of this thread that a tool may still hold (task_events.cpp).
void stand_in(implicit_task* si, implicit_task* member);
/// Task `rec` of a taskloop whose codeptr_ra is `ra` runs `iterations` iterations from
/// `start` (libomp's chunk: the lowest iteration value for a decreasing loop): its
/// task_create reports `ra`, and its start a dispatch (ompt_dispatch_taskloop_chunk).
void taskloop_task(ext::task* rec, const void* ra, std::uint64_t start, std::uint64_t iterations);
/// The next task_switch_in of this thread is a taskyield's (status ompt_task_yield).
void next_switch_is_yield() noexcept;
/// Task `d` (which ran `prev`, null: the implicit task `it`) belongs to a cancelled
/// taskgroup and is discarded, not run: as libomp, no switch to it, a cancel event
/// (discarded_task, no code pointer); returns what switch_out goes back to.
ompt_data_t* task_discarded(tasking::tdata* prev, implicit_task* it, tasking::tdata* d);
/// What a task run by the context that ran `prev` (null: the implicit task `it`) goes
/// back to when it ends: that task, or, for a task run from the scheduler loop (a
/// stand-in), whatever the thread's view has on top then (scheduled_task.hpp).
ompt_data_t* return_target(tasking::tdata* prev, implicit_task* it);
/// Task `d` ended (its body returned, or it was discarded): task_schedule back to
/// `back_to` (from return_target), with status ompt_task_cancel when its taskgroup is
/// cancelled, and ompt_task_detach when `detached` (a body that ended before its event
/// was fulfilled).
void task_switch_out(tasking::tdata* d, ompt_data_t* back_to, bool detached = false);
/// Task `rec` with the depend lists of its construct is launched: task_create (with
/// has_dependences) and, for non-empty lists, dependences, before any edge is added.
void task_launched_with_deps(ext::task* rec, int n1, const kmp_depend_info* l1, int n2,
                             const kmp_depend_info* l2);
/// A taskwait with depend (or an undeferred task's wait for its dependences) begins:
/// task_create of the calling thread's taskwait task, its dependences. Its end
/// reports it complete (task_schedule ompt_taskwait_complete) and forgets it.
void taskwait_deps_begin(int n1, const kmp_depend_info* l1, int n2, const kmp_depend_info* l2);
void taskwait_deps_end();
/// An edge from task `src` (not completed) to `sink` (null: the calling thread's
/// taskwait task) was added.
void task_dependence(ext::task* src, ext::task* sink);
/// The calling member's doacross source or sink: its normalised iteration per dimension.
void doacross_dependences(ompt_dependence_type_t type, const std::uint64_t* iteration, int ndims);
/// Held (while a tool is active) around adding an edge from a task's dependence node,
/// and around closing it when the task completes: a task_dependence event reads the
/// source task's data, which must not be freed meanwhile. A few locks, striped by node.
/// Also around a detached task's completion race (tasking/event.cpp), by extra block.
void lock_depnode(const void* node) noexcept;
void unlock_depnode(const void* node) noexcept;

/// Unique ids (ompt_get_unique_id): never 0.
std::uint64_t unique_id() noexcept;

}  // namespace loom::omp::ompt
