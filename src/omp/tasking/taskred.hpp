// Task reductions (task_reduction / in_reduction, reduction modifier `task`, taskloop
// reductions): one private copy per worker of every item, combined into the shared
// item when the taskgroup ends.
#pragma once

#include "tasking/task.hpp"

namespace loom::omp::tasking {

/// Combines and frees the reductions of taskgroup `g` (end taskgroup).
void finish_reductions(const here& h, tgroup* g);

}  // namespace loom::omp::tasking
