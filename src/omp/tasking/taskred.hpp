// Task reductions (task_reduction / in_reduction, reduction modifier `task`, taskloop
// reductions): one private copy per worker of every item, combined into the shared
// item when the taskgroup ends.
#pragma once

#include "tasking/task.hpp"

namespace loom::omp::tasking {

/// Combines and frees the reductions of taskgroup `g` (end taskgroup).
void finish_reductions(const here& h, tgroup* g);

// ---- as the ABI entry points of both compilers ask ------------------------------------
// `data`: an array of `num` kmp_taskred_input_t (the _v1 forms: the older
// kmp_task_red_input_t, without reduce_orig). The result is the taskgroup's handle.

/// task_reduction on the running task's innermost taskgroup.
void* reduction_init(int num, void* data);
void* reduction_init_v1(int num, void* data);
/// The reduction modifier `task` of a parallel (`is_ws` false) or worksharing
/// construct: opens a taskgroup whose copies the team's members share.
void* reduction_modifier_init(bool is_ws, int num, void* data);
void* reduction_modifier_init_v1(bool is_ws, int num, void* data);
/// The end of the modifier's construct: closes that taskgroup (and combines).
void reduction_modifier_fini();
/// The calling worker's private copy of reduction item `data` (its shared address or
/// any copy's) in `taskgroup` (null: the innermost one with reductions), or `data`.
void* reduction_private_copy(void* taskgroup, void* data);

}  // namespace loom::omp::tasking
