// Reductions of a worksharing or parallel construct: which member combines, and how
// (methods and protocol: reduce.cpp).
#pragma once

namespace loom::omp {

struct implicit_task;

/// Starts the reduction of `it`'s team. Returns libomp's method code for the compiled
/// code: 1 combine into the shared variables (a team of one, or member 0 of the tree
/// after it combined the others' `reduce_data` with `reduce_func`), 2 every member
/// updates them atomically (`atomic_allowed`, small teams), 0 nothing to do. Without
/// `nowait`, a member that got 1 or 2 calls reduce_end after its combine.
int reduce_begin(implicit_task* it, bool atomic_allowed, void* reduce_data,
                 void (*reduce_func)(void*, void*), bool nowait);
/// The end of a blocking reduction: its barrier (atomic method) or member 0's release
/// of the others (tree method).
void reduce_end(implicit_task* it);

}  // namespace loom::omp
