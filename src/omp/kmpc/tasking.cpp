// clang's explicit-task entry points: task allocation and launch, undeferred tasks,
// taskwait/taskyield, dependences, detach, taskgroup, task reductions and taskloop
// (libomp 19, kmp_tasking.cpp / kmp_taskdeps.cpp). Translations to tasking/.
#include <cstddef>

#include "abi.hpp"
#include "tasking/dep.hpp"
#include "tasking/task.hpp"
#include "tasking/taskloop.hpp"
#include "tasking/taskred.hpp"

#include "ompt/events.hpp"

using namespace loom::omp;
using namespace loom::omp::tasking;

// ---- tasks ------------------------------------------------------------------------------

LOOM_OMP_API kmp_task_t* __kmpc_omp_task_alloc(ident_t*, kmp_int32, kmp_int32 flags,
                                               std::size_t sizeof_kmp_task_t,
                                               std::size_t sizeof_shareds,
                                               kmp_routine_entry_t task_entry) {
    return task_alloc(flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

LOOM_OMP_API kmp_task_t* __kmpc_omp_target_task_alloc(ident_t*, kmp_int32, kmp_int32 flags,
                                                      std::size_t sizeof_kmp_task_t,
                                                      std::size_t sizeof_shareds,
                                                      kmp_routine_entry_t task_entry,
                                                      kmp_int64 /*device_id*/) {
    return target_task_alloc(flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

LOOM_OMP_API kmp_int32 __kmpc_omp_task(ident_t*, kmp_int32, kmp_task_t* kt) {
    if (ompt::on()) [[unlikely]] {
        ompt::observed_entry(LOOM_OMPT_RA, LOOM_OMPT_FRAME_ADDRESS(), [kt](const void*) { task_spawn<true>(kt); });
        return 0;
    }
    task_spawn<false>(kt);
    return 0;
}

// The if(0) task's body is called by the encountering code itself, after this returns:
// its exit_frame (and the creator's enter_frame) is the caller's frame, as libomp
// reports it. Read only with a tool; the caller keeps frame pointers when a tool needs
// frames (-fno-omit-frame-pointer), as under libomp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-address"
LOOM_OMP_API void __kmpc_omp_task_begin_if0(ident_t*, kmp_int32, kmp_task_t* kt) {
    LOOM_OMPT_STORE_RA();
    undeferred_task_begin(kt, ompt::on() ? __builtin_frame_address(1) : nullptr);
}
#pragma GCC diagnostic pop

LOOM_OMP_API void __kmpc_omp_task_complete_if0(ident_t*, kmp_int32, kmp_task_t* kt) {
    undeferred_task_end(kt);
}

LOOM_OMP_API kmp_int32 __kmpc_omp_taskwait(ident_t*, kmp_int32) {
    if (ompt::on()) [[unlikely]] {
        task_wait_observed(LOOM_OMPT_RA, LOOM_OMPT_FRAME_ADDRESS());
        return 0;
    }
    task_wait();
    return 0;
}

LOOM_OMP_API kmp_int32 __kmpc_omp_taskyield(ident_t*, kmp_int32, int) {
    LOOM_OMPT_ENTER();
    task_yield();
    return 0;
}

LOOM_OMP_API kmp_int32 __kmpc_omp_reg_task_with_affinity(ident_t*, kmp_int32, kmp_task_t*,
                                                         kmp_int32, void*) {
    return 0;  // affinity is a hint; loom's scheduler places tasks by stealing
}

LOOM_OMP_API void* __kmpc_task_allow_completion_event(ident_t*, kmp_int32, kmp_task_t* kt) {
    return allow_completion_event(kt);
}

// ---- dependences --------------------------------------------------------------------------

LOOM_OMP_API kmp_int32 __kmpc_omp_task_with_deps(ident_t*, kmp_int32, kmp_task_t* kt,
                                                 kmp_int32 ndeps, kmp_depend_info* dep_list,
                                                 kmp_int32 ndeps_noalias,
                                                 kmp_depend_info* noalias_dep_list) {
    LOOM_OMPT_ENTER();
    task_spawn_with_deps(kt, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
    return 0;
}

LOOM_OMP_API void __kmpc_omp_wait_deps(ident_t*, kmp_int32, kmp_int32 ndeps,
                                       kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
                                       kmp_depend_info* noalias_dep_list) {
    LOOM_OMPT_ENTER();
    wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list);
}

LOOM_OMP_API void __kmpc_omp_taskwait_deps_51(ident_t*, kmp_int32, kmp_int32 ndeps,
                                              kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
                                              kmp_depend_info* noalias_dep_list,
                                              kmp_int32 has_no_wait) {
    // With nowait the construct is an empty task with these dependences: nothing can
    // observe it, so it is dropped.
    if (has_no_wait) return;
    LOOM_OMPT_ENTER();
    wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list);
}

// libomp's task-graph inspection entry points (kmp_taskdeps.cpp), used by tests that
// check which edges a task received.
LOOM_OMP_API depnode* __kmpc_task_get_depnode(kmp_task_t* kt) { return depnode_of(kt); }
LOOM_OMP_API depnode::edge* __kmpc_task_get_successors(kmp_task_t* kt) {
    return successors_of(kt);
}

// ---- taskgroup and task reductions ----------------------------------------------------

LOOM_OMP_API void __kmpc_taskgroup(ident_t*, kmp_int32) {
    open_group(current_here());
    LOOM_OMPT_EVENT(sync_region_bound(ompt_sync_region_taskgroup, ompt_scope_begin, LOOM_OMPT_RA));
}
LOOM_OMP_API void __kmpc_end_taskgroup(ident_t*, kmp_int32) {
    LOOM_OMPT_ENTER();
    LOOM_OMPT_EVENT(sync_region_wait(ompt_sync_region_taskgroup, ompt_scope_begin, LOOM_OMPT_RA));
    close_group(current_here());
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_taskgroup, ompt_scope_end, LOOM_OMPT_RA));
}

LOOM_OMP_API void* __kmpc_taskred_init(int, int num, void* data) {
    return reduction_init(num, data);
}
LOOM_OMP_API void* __kmpc_task_reduction_init(int, int num, void* data) {
    return reduction_init_v1(num, data);
}
LOOM_OMP_API void* __kmpc_task_reduction_get_th_data(int, void* tskgrp, void* data) {
    return reduction_private_copy(tskgrp, data);
}
LOOM_OMP_API void* __kmpc_taskred_modifier_init(ident_t*, int, int is_ws, int num, void* data) {
    return reduction_modifier_init(is_ws != 0, num, data);
}
LOOM_OMP_API void* __kmpc_task_reduction_modifier_init(ident_t*, int, int is_ws, int num,
                                                       void* data) {
    return reduction_modifier_init_v1(is_ws != 0, num, data);
}
LOOM_OMP_API void __kmpc_task_reduction_modifier_fini(ident_t*, int, int) {
    reduction_modifier_fini();
}

// ---- taskloop ---------------------------------------------------------------------------

LOOM_OMP_API void __kmpc_taskloop(ident_t* loc, kmp_int32 gtid, kmp_task_t* task, kmp_int32 if_val,
                                  kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st, kmp_int32 nogroup,
                                  kmp_int32 sched, kmp_uint64 grainsize, void* task_dup) {
    LOOM_OMPT_ENTER();
    taskloop(loc, gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize, 0, task_dup);
}

LOOM_OMP_API void __kmpc_taskloop_5(ident_t* loc, kmp_int32 gtid, kmp_task_t* task,
                                    kmp_int32 if_val, kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st,
                                    kmp_int32 nogroup, kmp_int32 sched, kmp_uint64 grainsize,
                                    kmp_int32 modifier, void* task_dup) {
    LOOM_OMPT_ENTER();
    taskloop(loc, gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize, modifier, task_dup);
}
