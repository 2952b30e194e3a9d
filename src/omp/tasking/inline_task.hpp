// A task the encountering thread runs at once, on its own stack: an undeferred (if(0))
// task, or an included one (a descendant of a final task, a task of a team of one).
// gcc's GOMP_task runs all of these as libgomp does (task.c: a gomp_task on the
// stack, thr->task set around fn): the body is called directly, so the only runtime
// work is the identity the body runs under -- the running task its children, taskwait,
// taskgroup, omp_in_final and the ICV routines see.
//
// That identity is a record from the thread's cache (a 128-byte record, not one on the
// stack: a child that outlives the body keeps a pointer to its parent's node). Until
// the body ends the parent's counts are not touched: the parent is suspended below us
// on this stack, and no other thread reads its plain counts (task.hpp, "Counting").
// When the body ends with no child left -- the common case -- the record goes back to
// the cache and the parent never knew of it. Only a task whose children escape is
// counted into its parent then and completed through the general path (complete()).
//
// For the no-tool path only: with a tool the OMPT events (task_create, task_schedule,
// frames) need the general path (undeferred_task_begin / run_included).
#pragma once

#include "tasking/task.hpp"

namespace loom::omp::tasking {

/// Begins a task of the running task that runs here and now (`final_clause`: the task
/// construct said final(true)). Returns its record; the caller runs the body, then
/// calls end_inline.
inline ext::task* begin_inline(const here& h, bool final_clause) {
    ext::task* rec = new_record();
    // Not f_running: only an untied clang task re-queueing itself reads it.
    make_child(h, rec, f_tied, final_clause);
    kmp_task_t* kt = ktask_of(rec);
    kt->shareds = nullptr;
    kt->routine = nullptr;
    kt->part_id = 0;
    h.rc->current = data_of(rec);
    return rec;
}

/// The rest of end_inline for a task that has an extra block (a taskgroup, a
/// dependence hash, ICVs its body changed) or children that outlive its body (task.cpp):
/// puts back its ICVs, counts it into its parent as the general path would have at its
/// start, and completes it (complete(): released once its last child is).
void end_inline_counted(ext::task* rec) noexcept;

/// Ends a task begun by begin_inline, on the same context (tied: `h` still holds).
inline void end_inline(const here& h, ext::task* rec) noexcept {
    h.rc->current = parent_is_task(rec) ? reinterpret_cast<tdata*>(parent_node(rec)) : nullptr;
    // No extra block (only ensure_extra tags the slot) and no child outstanding: no
    // other thread knows the record.
    if (__builtin_expect((slot_bits(rec) & slot_extra) == 0 && data_of(rec)->n.settled(), 1)) {
        free_raw(rec);
        return;
    }
    end_inline_counted(rec);
}

}  // namespace loom::omp::tasking
