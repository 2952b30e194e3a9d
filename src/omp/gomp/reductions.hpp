// Task reductions of worksharing constructs entered through the GOMP ABI
// (`for reduction(task, ...)`, `sections reduction(task, ...)`): GOMP_loop_start and
// GOMP_sections2_start receive gcc's reduction descriptor array and hand it here.
#pragma once

#include <cstdint>

namespace loom::omp::gomp {

/// Registers gcc's task-reduction array `reductions` (libgomp's layout, task.c
/// gomp_reduction_register: [0] item count, [1] per-thread chunk size, [2] alignment,
/// then three words per item) for the worksharing construct the calling member just
/// entered. `first`: the caller is the first member of the team to reach the construct
/// (it registers; the others adopt what it registered); `construct`: the construct's
/// number in the team, the same in every member (its single count). Undone by
/// GOMP_workshare_task_reduction_unregister at the end of the construct.
void workshare_task_reduction_register(std::uintptr_t* reductions, bool first,
                                       std::uint32_t construct);

}  // namespace loom::omp::gomp
