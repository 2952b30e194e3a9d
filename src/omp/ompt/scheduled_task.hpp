// The tasks a tool was told each thread runs, in the order the thread returns to them,
// and the task_schedule events that keep that view true when a worker switches between
// fiber contexts.
//
// OpenMP 5.2, 19.5.2.10: the prior task of a task_schedule event is the task that was
// running on the thread. libomp's threads run tasks strictly nested (a task run in a
// barrier or a taskwait returns before its caller goes on), so each thread's events form
// a stack, and tools keep per-thread state on that assumption: Archer ends, on the
// calling thread, the ignore-writes scope an implicit task's barrier began when that
// task switches to an explicit one, and begins it again when the thread switches back.
// loom parks contexts on fibers: a worker whose member waits in a barrier runs a task of
// the team from its scheduler loop, the task parks in a taskwait, and the member resumes
// and leaves its barrier while the task is still parked. Without an event there, the
// tool saw the member's barrier end on top of the parked task (Archer's per-thread
// ignore count went below zero: a ThreadSanitizer CHECK failure). So loom reports a
// switch whenever a different context resumes on the thread: the event order on each
// thread reads as a sequence of switches between the thread's tasks, each starting from
// the task the one before switched to.
//
// Where a task returns when it ends is kept the same way, as a stack per thread (the
// thread's view): a task that begins goes on top, a context that resumes moves to the
// top, a task that ends leaves it wherever it is. A task run from the scheduler loop (a
// stand-in) returns to what is below it then, not to what ran before it began: that
// task may have completed meanwhile (it resumed, ended and returned to the stand-in's
// task, which parked again), and a tool that frees or recycles a task's data at its
// completion must never be handed it again (tests/omp/ompt_thread_view.c).
//
// The view holds the tool's data by value (a tool gives each task distinct data: a
// pointer or an id; empty data names no task). An empty entry stands for "no task": the
// thread runs nothing the tool knows of (between regions, after an implicit task
// ended) and a task begun then returns to nothing. Every context of the OpenMP layer is
// tied to its thread, so each entry is pushed and removed by the thread that owns it.
#pragma once

#include "ompt/ompt.hpp"

namespace loom::omp::ompt {

/// The task a tool was last told this thread runs (the top of the view, when it names
/// a task), or null: none known. Points to a thread-local copy.
ompt_data_t* scheduled_task() noexcept;
/// The thread now runs `d` (an implicit or initial task begins, or the encountering
/// task goes on after a region): `d` goes on top of the view.
void set_scheduled_task(const ompt_data_t* d) noexcept;
/// Implicit or initial task `d` ended here: it leaves the view, and the thread runs no
/// task the tool knows of.
void implicit_task_ended(const ompt_data_t* d) noexcept;
/// Explicit task `mine` begins here after `prior` (the prior its event names; null or
/// empty: no task): `prior` on top, `mine` above it.
void task_begins(const ompt_data_t* prior, const ompt_data_t* mine) noexcept;
/// Explicit task `mine` ended here (or was discarded, or detached): it leaves the view.
/// Returns the task the thread goes on with: `resumes` (the context below on this
/// stack, non-null for a task run inline), which goes on top; else what is on top now
/// (a thread-local copy, empty data when none).
ompt_data_t* task_ends(const ompt_data_t* mine, ompt_data_t* resumes) noexcept;
/// A parked context resumed on this thread and runs `mine` (its explicit task, or its
/// implicit task): `mine` goes on top, and when the thread last ran a different task,
/// that switch is reported (ompt_task_switch).
void context_resumed(ompt_data_t* mine) noexcept;

}  // namespace loom::omp::ompt
