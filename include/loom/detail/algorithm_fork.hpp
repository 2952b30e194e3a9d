// Two-way fork for the recursive algorithms (sort, stable_sort, merge): the second
// branch becomes a child task, the first runs here, both under the policy's exception
// rule, so a failing branch is recorded in a bulk_error instead of escaping a task.
#pragma once

#include <utility>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/task_group.hpp"

namespace loom::detail {

template <class F1, class F2>
void fork2(const exec_info& ei, bulk_error& err, F1&& f1, F2&& f2) {
    if (err.failed()) return;  // a branch that starts after a failure is skipped
    task_group g;
    g.spawn([&ei, &err, &f2] { guarded(ei, err, f2); }, ei.prio);
    guarded(ei, err, f1);
    g.wait();  // the child never throws: guarded() catches
}

}  // namespace loom::detail
