// taskloop: the loop's iterations split into tasks by grainsize or num_tasks
// (taskloop.cpp).
#pragma once

#include "abi.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

/// Runs the taskloop whose pattern task is `task` (its bounds at *lb, *ub, step `st`):
/// `sched` 0 none, 1 grainsize, 2 num_tasks with value `grainsize` (`modifier`: strict);
/// `dup` copies the pattern's privates into each task (may be null); `nogroup` false
/// wraps it in a taskgroup; if_val 0 runs it undeferred.
void taskloop(ident_t* loc, kmp_int32 gtid, kmp_task_t* task, int if_val, kmp_uint64* lb,
              kmp_uint64* ub, kmp_int64 st, int nogroup, int sched, kmp_uint64 grainsize,
              int modifier, void* dup);

}  // namespace loom::omp::tasking
