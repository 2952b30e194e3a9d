// Task dependences: the per-parent dependence hash and the dependence nodes.
// Protocol and memory ordering: docs/omp_tasks.md, "Dependences".
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

struct dephash;

/// One task (or one `taskwait depend` / undeferred task waiting) in the graph.
// The first field and the edge layout follow libomp's kmp_base_depnode_t and
// kmp_depnode_list_t (kmp.h: `successors` first; list items {node, next}), which
// __kmpc_task_get_depnode / __kmpc_task_get_successors hand out.
//
// A node sits at the end of a block of memory, its inline edges just below it: the
// task's own record when the record has room past the task's data (deps::place), else
// a 128-byte record of its own (4 inline edges), or a waiter's stack buffer.
struct depnode {
    struct edge {
        depnode* to;
        edge* next;
    };
    /// Edges beyond the inline ones: a 128-byte record each.
    struct edge_block {
        static constexpr unsigned capacity = 7;
        edge_block* next;
        edge e[capacity];
    };

    std::atomic<edge*> succ{nullptr};  // successors; `closed` once the task completed
    // Two references: the task's own, and the hash's (held while any entry keeps the
    // node: `hrefs` counts those entries, in the parent's plain integer, so that a
    // node entering and leaving entries costs no atomic until the last one lets go).
    std::atomic<int> refs{2};
    // Predecessors not done, counted from setup_bias while the parent adds edges: a
    // predecessor that completes meanwhile counts down from there, so the count cannot
    // reach 0 before end_setup() takes the bias back less the edges linked (one RMW
    // for all the edges instead of one per edge).
    static constexpr int setup_bias = 1 << 30;
    std::atomic<int> npred{setup_bias};
    std::uint64_t linked = 0;        // parent only: the last edge added here was for this pass
    ext::task* task = nullptr;       // null: a waiting context (waiter)
    ext::wait_slot* waiter = nullptr;
    // The edges that point here, one in each predecessor's successor list, are this
    // node's memory: a predecessor reads its edge before it counts npred down, and this
    // node is freed only after it ran, so after the last of them. Memory of the node's
    // own thread, then: an edge from the heap, freed by the thread that completed the
    // predecessor, made two threads meet on the allocator's arena lock (~4 us each
    // time a dependence chain moved between workers). Written by the parent only.
    std::uint32_t edges_used = 0;
    std::uint32_t blocks = 0;         // edge blocks made (more_edges, newest first)
    std::uint32_t hrefs = 0;          // parent only: hash entries that keep this node
    std::uint16_t inline_cap = 0;     // edges in the block just below the node
    bool in_record = false;           // the block is the task's record (f_dn_inline)
    edge_block* more_edges = nullptr;

    depnode() = default;
    depnode(const depnode&) = delete;
    depnode& operator=(const depnode&) = delete;
    ~depnode();
    /// Makes a node at the end of the `bytes` bytes at `block` (8-byte aligned), with
    /// the inline edges that fit below it.
    static depnode* make_in(void* block, std::size_t bytes) noexcept;
    /// An edge slot for one more predecessor (the parent, while it adds edges).
    edge* take_edge();
    /// Gives back the slot take_edge() returned last (its predecessor had completed).
    void untake_edge() noexcept { --edges_used; }
    /// The parent added all edges (each linked edge holds one edge slot): true if no
    /// predecessor is left, so the parent itself makes the node ready.
    bool end_setup() noexcept {
        const int d = setup_bias - static_cast<int>(edges_used);
        return npred.fetch_sub(d, std::memory_order_acq_rel) == d;
    }

private:
    edge* inline_edges() noexcept { return reinterpret_cast<edge*>(reinterpret_cast<char*>(this) - inline_cap * sizeof(edge)); }
};
static_assert(sizeof(depnode) == 64);
static_assert(node_room == sizeof(depnode) + 3 * sizeof(depnode::edge), "task.hpp node_room: a node and 3 inline edges");
static_assert(sizeof(depnode::edge_block) <= ext::task::record_size);

namespace deps {

/// Drops one reference to a node (frees it at 0).
void drop_node(depnode* dn) noexcept;
/// Frees a dependence hash (its owner task ended or its region ended).
void free_hash(dephash* h) noexcept;
/// The task of `rec` completed: release its successors.
void task_done(ext::task* rec) noexcept;
/// The dependence node of task `rec` (u_deps set).
depnode* node_of(ext::task* rec) noexcept;
/// The record of `rec` holds its node (f_dn_inline): its last reference frees the
/// record (the task's own reference is dropped when the task is released).
inline bool frees_record(ext::task* rec) noexcept { return (rec->flags & f_dn_inline) != 0; }

}  // namespace deps

// ---- the dependence constructs, as the ABI entry points of both compilers ask -------

/// Launches a task made by task_alloc once the dependences of the two lists (clang
/// passes the noalias ones apart) are satisfied.
void task_spawn_with_deps(kmp_task_t* kt, kmp_int32 ndeps, kmp_depend_info* dep_list,
                          kmp_int32 ndeps_noalias, kmp_depend_info* noalias_dep_list);
/// Waits (running own children meanwhile) until the running task's earlier children
/// that the lists name are done: an undeferred task's or taskwait's dependences.
void wait_deps(kmp_int32 ndeps, kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
               kmp_depend_info* noalias_dep_list);
/// The task's dependence node (null when it had no dependences) and its live successor
/// list (empty once the task completed): libomp's task-graph inspection.
depnode* depnode_of(kmp_task_t* kt) noexcept;
depnode::edge* successors_of(kmp_task_t* kt) noexcept;

}  // namespace loom::omp::tasking
