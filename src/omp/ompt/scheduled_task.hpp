// The task a tool was last told each thread runs, and the task_schedule events that keep
// that view true when a worker switches between fiber contexts.
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
// ignore count went below zero: a ThreadSanitizer CHECK failure). So loom keeps, per
// thread, the task its last event switched to, and reports a switch whenever a
// different context resumes on the thread; the event order on each thread then reads
// as a sequence of switches between the thread's tasks, each starting from the task the
// one before switched to.
#pragma once

#include "ompt/ompt.hpp"

namespace loom::omp::ompt {

/// The task a tool was last told this thread runs (an implicit task's begin, the next
/// task of a task_schedule), or null: none known (a worker between regions, or after
/// the implicit task it ran ended). A thread-local copy of the task's data: a stand-in
/// task's copy dies with its frame, while the view outlives it.
ompt_data_t* scheduled_task() noexcept;
/// `d` (null or empty data: none) is what this thread runs now, in the tool's view.
void set_scheduled_task(const ompt_data_t* d) noexcept;
/// A parked context resumed on this thread and runs `mine` (its explicit task, or its
/// implicit task). When the thread last switched to a different task, reports that
/// switch (ompt_task_switch) and, for a stand-in context (`return_to` non-null: the
/// data its task returns to when it ends), makes the task it switched from the one it
/// returns to, as if it had started here now.
void context_resumed(ompt_data_t* mine, ompt_data_t* return_to) noexcept;

}  // namespace loom::omp::ompt
