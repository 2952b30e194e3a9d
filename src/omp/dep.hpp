// Task dependences: the per-parent dependence hash and the dependence nodes.
// Protocol and memory ordering: docs/omp_tasks.md, "Dependences".
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "task.hpp"

namespace loom::omp::tasking {

struct dephash;

/// One task (or one `taskwait depend` / undeferred task waiting) in the graph.
// The first field and the edge layout follow libomp's kmp_base_depnode_t and
// kmp_depnode_list_t (kmp.h: `successors` first; list items {node, next}), which
// __kmpc_task_get_depnode / __kmpc_task_get_successors hand out.
struct depnode {
    struct edge {
        depnode* to;
        edge* next;
    };
    std::atomic<edge*> succ{nullptr};  // successors; `closed` once the task completed
    std::atomic<int> refs{1};        // the task's own + one per place the hash keeps it
    std::atomic<int> npred{1};       // predecessors not done, + 1 while being set up
    std::uint64_t linked = 0;        // parent only: the last edge added here was for this pass
    ext::task* task = nullptr;       // null: a waiting context (waiter)
    ext::wait_slot* waiter = nullptr;
};

namespace deps {

/// Drops one reference to a node (frees it at 0).
void drop_node(depnode* dn) noexcept;
/// Frees a dependence hash (its owner task ended or its region ended).
void free_hash(dephash* h) noexcept;
/// The task of `rec` completed: release its successors.
void task_done(ext::task* rec) noexcept;

}  // namespace deps
}  // namespace loom::omp::tasking
