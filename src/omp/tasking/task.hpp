// Explicit tasks: the records, the counting protocol and the entry points shared by
// task.cpp, taskgroup.cpp, dep.cpp, taskloop.cpp, taskred.cpp and event.cpp.
//
// An explicit task is one core task record (ext::task, 128 bytes) whose storage holds
//   [ tdata: 40 bytes ][ kmp_task_t + privates ][ shareds ]
// so the kmp_task_t the compiler sees sits 72 bytes after the record. When it does not
// fit, the record is one larger heap block with the same layout.
//
// Counting (docs/omp_tasks.md, "Counting"): every task, implicit task (root) and
// taskgroup is a `node`. A child is counted twice: "complete" (its body ended and its
// detach event, if any, was fulfilled: what taskwait waits for) and "released"
// (complete and every child of it released: what barriers, taskgroups and the life of
// the parent's record wait for). The context that runs the node's task is its owner; it
// counts children up in plain integers, and a child that ends inside the owner's own
// run (taskwait, included task) counts down there too. Only children that end elsewhere
// touch the atomic `remote` word (complete in the low 32 bits, released in the high
// 32), and the owner adds its own counts there once, when it has to wait: the same
// trick as loom::task_group.
//
// Who may touch a node after a count reaches 0: a child that brings a count to 0 reads
// the node's `waiter` after its RMW, so the owner must be waiting for that very count
// (parked until notified, or ended: wait_final), or the node may be gone by then. The
// owner therefore raises a count only while it waits for it: the complete count in a
// taskwait; the released count in a drain, a taskgroup's end and at its own end, where
// the complete count is folded in only after the wait (all its children released are
// complete; it is the owner's RMW that brings that count to 0) or not at all. Before,
// a drain and the task's end raised both: a child that completed last while another
// was still to be released brought the complete count to 0 and read `waiter` while the
// releasing child could already have freed the node (ThreadSanitizer, GCC's
// libgomp.c/sort-1.c).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "abi.hpp"
#include "out_of_memory.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "ompt/ompt.hpp"
#include "tasking/task_team.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

struct team;

using kmp_routine_entry_t = kmp_int32 (*)(kmp_int32, void*);

union kmp_cmplrdata_t {
    kmp_int32 priority;
    kmp_routine_entry_t destructors;
};

/// What the compiler allocates through __kmpc_omp_task_alloc (kmp.h).
struct kmp_task_t {
    void* shareds;
    kmp_routine_entry_t routine;
    kmp_int32 part_id;
    kmp_cmplrdata_t data1;  // destructors thunk
    kmp_cmplrdata_t data2;  // priority
};
static_assert(sizeof(kmp_task_t) == 40);

/// kmp_depend_info_t.
struct kmp_depend_info {
    std::intptr_t base_addr;
    std::size_t len;
    std::uint8_t flags;  // 1 in, 2 out, 4 mutexinoutset, 8 inoutset, 0x80 omp_all_memory
};

// Compiler flags of __kmpc_omp_task_alloc (kmp_tasking_flags_t, low 16 bits).
inline constexpr kmp_int32 kf_tied = 0x1;
inline constexpr kmp_int32 kf_final = 0x2;
inline constexpr kmp_int32 kf_merged_if0 = 0x4;
inline constexpr kmp_int32 kf_destructors = 0x8;
inline constexpr kmp_int32 kf_proxy = 0x10;
inline constexpr kmp_int32 kf_priority = 0x20;
inline constexpr kmp_int32 kf_detachable = 0x40;
inline constexpr kmp_int32 kf_hidden_helper = 0x80;

namespace tasking {

inline constexpr std::int64_t r_one = std::int64_t{1} << 32;

// Low bits of node::waiter: what the owner waits for.
inline constexpr std::uintptr_t wait_c = 1;      // taskwait: complete count reaches 0
inline constexpr std::uintptr_t wait_r = 2;      // drain / taskgroup: released count reaches 0
inline constexpr std::uintptr_t wait_final = 3;  // task ended: release it when released == 0

struct node {
    std::atomic<std::int64_t> remote{0};  // -(ends elsewhere) + owner's adds; C low, R high
    std::int32_t created = 0;             // owner: children not known complete
    std::int32_t unreleased = 0;          // owner: children (targeting this node) not known released
    std::atomic<std::uintptr_t> waiter{0};

    /// Owner only, once its task's body ended: no child is outstanding, so no other
    /// thread will touch the node (a child reads it after its RMW only when that RMW
    /// brought a count to 0, which it cannot before the owner added its own; below,
    /// "Who may touch a node").
    bool settled() const noexcept {
        return created == 0 && unreleased == 0 && remote.load(std::memory_order_relaxed) == 0;
    }
};
static_assert(sizeof(node) == 24);

inline std::int32_t c_of(std::int64_t v) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}
inline std::int64_t r_of(std::int64_t v) noexcept { return (v - c_of(v)) >> 32; }

struct root_ctx;
struct tgroup;
struct dephash;
struct depnode;
struct red_set;

/// Per-task data in front of the kmp_task_t.
struct tdata {
    node n;             // this task as a parent
    void* slot;         // release target (tgroup*) or, tagged slot_extra, the extra block
    root_ctx* root;     // the implicit-task context of the member that created the tree
};
static_assert(sizeof(tdata) == 40);

inline constexpr std::size_t ktask_offset = 32 + sizeof(tdata);  // from the record
inline constexpr std::size_t inline_room = ext::task::storage_size - sizeof(tdata);
/// Room past a task's data for its dependence node and 3 inline edges (dep.cpp checks
/// it): a task known to come with depend gets a record with this much more.
inline constexpr std::size_t node_room = 112;
/// The most task data a record of the per-thread caches takes: none while a tool is
/// active, whose explicit tasks all get heap records (heap_storage, task_create.hpp).
inline constexpr std::size_t cache_room_for(bool observed) noexcept { return observed ? 0 : inline_room; }

// ext::task::flags bits.
inline constexpr std::uint8_t f_tied = 1;
inline constexpr std::uint8_t f_final = 2;       // final (its descendants are final and included)
// 4: free (was the extra block's flag; tdata::slot's tag says it now, see slot_bits)
inline constexpr std::uint8_t f_dn_inline = 8;   // its dependence node lives at the end of its record
inline constexpr std::uint8_t f_running = 16;
inline constexpr std::uint8_t f_requeue = 32;    // untied part asked to run again
inline constexpr std::uint8_t f_bounced = 64;    // went through its worker's mailbox
inline constexpr std::uint8_t f_destructors = 128;
// ext::task::user bits.
inline constexpr std::uint8_t u_detach = 1;
inline constexpr std::uint8_t u_deps = 2;        // has a depnode (in its record, or extra->dn)
inline constexpr std::uint8_t u_explicit = 4;    // always set: the record is an OpenMP task
inline constexpr std::uint8_t u_cancel_check = 8;
inline constexpr std::uint8_t u_prio = 16;       // priority clause (kmp_task_t::data2)
inline constexpr std::uint8_t u_included = 32;   // a descendant of a final task: runs at once
inline constexpr std::uint8_t u_helper = 64;     // hidden helper task: runs on a helper thread
// Its body runs even in a cancelled taskgroup: it ends the life of objects its creation
// began (gcc's cpyfn copy-constructs firstprivate objects into the task's block and the
// body destroys them; libgomp task.c: copy_ctors_done exempts such a task from discard).
inline constexpr std::uint8_t u_body_destroys = 128;

/// The ICVs of the implicit task an explicit task runs on, as they were before the task
/// first changed them (writable_icvs): put back when the task's body ends.
struct saved_icvs {
    implicit_task* it;
    task_icvs icv;
};

/// Rare per-task data, allocated on demand (a pooled record used as raw memory).
struct extra {
    tgroup* rel = nullptr;      // release target when created inside a taskgroup
    tgroup* tg = nullptr;       // innermost taskgroup this task opened
    dephash* deps = nullptr;    // dependence hash of this task's children
    depnode* dn = nullptr;      // this task's dependence node, when not in its record
    std::atomic<int> detach{0}; // 1 fulfilled, 2 body ended
    int ompt_flags = 0;         // OMPT: the task_type flags task_create reported
    std::uintptr_t event_tag = 0;
    saved_icvs* icvs = nullptr; // set while the task's body changed ICVs
    ompt_data_t ompt_task{};    // OMPT: the tool's data of this task (made only with a tool)
    ompt_frame_t ompt_frame{};
    ompt_dispatch_chunk_t ompt_chunk{};  // OMPT: a taskloop task's chunk, reported as it starts
};

/// The explicit-task context of one implicit task (implicit_task::tasking).
// Every task of the tree reads `it` and `tm` on whichever worker runs it, while the
// member's own thread writes `current` and the counters for each task it runs: the
// two groups live on separate cache lines (sharing one cost a miss per task).
struct root_ctx {
    // read-mostly
    implicit_task* it = nullptr;
    team* tm = nullptr;
    bool standin = false;        // a worker outside the team runs a task of it
    bool immediate = false;      // team of one: tasks run at once (included)
    // The team has fewer members than the pool has workers: its tasks are queued, not
    // handed off (queue_task). Decided when the context is made, not per task (a call
    // into the core each time); the pool only grows, so a region during which a nested
    // one grows it may hand off a task to a worker outside the team, which then holds
    // it for a member (runner_for) -- slower, still correct.
    bool smaller_than_pool = false;
    // cache_room_for the tasks created here, decided when the context is made, so that
    // clang's task allocation (an entry point of its own) compares with a field instead
    // of testing ompt::on() too: a tool starts when the first thread registers, before
    // any context is made (unless its own initialize runs task constructs).
#if LOOM_OMPT
    std::size_t cache_room = cache_room_for(ompt::on());
#else
    static constexpr std::size_t cache_room = inline_room;
#endif
    // written as tasks run
    alignas(64) node n;          // the implicit task as a parent
    tdata* current = nullptr;    // innermost explicit task running here (null: the implicit task)
    tgroup* tg = nullptr;        // innermost taskgroup of the implicit task
    dephash* deps = nullptr;
    // The routine of the last task with depend whose record had no room for its
    // dependence node: its next tasks get records with node_room (clang's
    // task_alloc does not say whether depend follows; tasks of one construct share
    // the routine). Written once per routine that needs it.
    kmp_routine_entry_t node_room_for = nullptr;
    bool phase_tasks = false;    // created deferred tasks since its last drain
};

struct tgroup {
    node n;
    tgroup* parent = nullptr;
    std::atomic<int> cancelled{0};
    red_set* red = nullptr;      // task reductions of this taskgroup
    int red_modifier = -1;       // reduction modifier: 0 parallel, 1 worksharing
    std::uintptr_t* gomp_red = nullptr;  // gcc's task-reduction descriptors (gomp/taskgroup.cpp)
    // The taskgroup gcc's worksharing constructs with task reductions open: not a
    // taskgroup of the program's, so `cancel taskgroup` inside it cancels the one
    // around it and its tasks are cancelled with that one (libgomp task.c, workshare).
    bool workshare = false;

    /// Cancelled, directly or (a worksharing construct's group) through its parent.
    bool is_cancelled() const noexcept {
        if (cancelled.load(std::memory_order_acquire)) return true;
        return workshare && parent && parent->cancelled.load(std::memory_order_acquire);
    }
};

// ---- record access ---------------------------------------------------------------

inline tdata* data_of(ext::task* rec) noexcept { return rec->data<tdata>(); }
inline kmp_task_t* ktask_of(ext::task* rec) noexcept {
    return reinterpret_cast<kmp_task_t*>(reinterpret_cast<char*>(rec) + ktask_offset);
}
inline ext::task* record_of(kmp_task_t* kt) noexcept {
    return reinterpret_cast<ext::task*>(reinterpret_cast<char*>(kt) - ktask_offset);
}
inline ext::task* record_of(tdata* d) noexcept {
    return reinterpret_cast<ext::task*>(reinterpret_cast<char*>(d) - 32);
}
// tdata::slot holds the task's release target (a tgroup*, null outside taskgroups) or,
// tagged with slot_extra, its extra block, whose `rel` then holds the target. Children
// walk their ancestors' slots on other threads (in_cancelled_group, binding_group, the
// gcc reduction lookup) while an ancestor's body may move its target into a new extra
// block (ensure_extra). One word says both, written once with release after the block
// is filled, read with acquire: a reader sees the old target or the block holding the
// same one, never the block taken for a target (the task's flags byte said it before,
// and its owner's f_running writes raced with those reads).
inline constexpr std::uintptr_t slot_extra = 1;
inline std::uintptr_t slot_bits(ext::task* rec) noexcept {
    return reinterpret_cast<std::uintptr_t>(
        std::atomic_ref<void*>(data_of(rec)->slot).load(std::memory_order_acquire));
}
inline extra* extra_of(ext::task* rec) noexcept {
    const std::uintptr_t w = slot_bits(rec);
    return (w & slot_extra) ? reinterpret_cast<extra*>(w & ~slot_extra) : nullptr;
}
/// The extra block of `rec`, created if needed (owner only, or before submission).
extra* ensure_extra(ext::task* rec);
/// Parent node (rec->owner): tagged with 1 when the parent is an explicit task.
inline node* parent_node(ext::task* rec) noexcept {
    return reinterpret_cast<node*>(reinterpret_cast<std::uintptr_t>(rec->owner) & ~std::uintptr_t{1});
}
inline bool parent_is_task(ext::task* rec) noexcept {
    return (reinterpret_cast<std::uintptr_t>(rec->owner) & 1) != 0;
}
inline tgroup* rel_group(ext::task* rec) noexcept {
    const std::uintptr_t w = slot_bits(rec);
    if (w & slot_extra) return reinterpret_cast<extra*>(w & ~slot_extra)->rel;
    return reinterpret_cast<tgroup*>(w);
}

/// A 128-byte record: a task's, or a raw block for taskgroups, extra data, dependence
/// nodes (the core's per-thread caches serve threads outside the pool as well).
inline ext::task* new_record() noexcept {
    return allocate_or_stop([] { return ext::allocate_task(); }, "a task record",
                            ext::task::record_size);
}
inline void free_raw(ext::task* t) noexcept { ext::free_task(t); }

/// True if `t` is a record of an OpenMP explicit task.
bool is_omp_task(ext::task* t) noexcept;
/// The body of detached task `rec` ended: true if its event was fulfilled (the caller
/// completes the task), false if omp_fulfill_event will (event.cpp). With a tool
/// (`ompt_prior`: the task switched back to), reports the switch back first.
bool detached_body_ended(ext::task* rec, ompt_data_t* ompt_prior) noexcept;
/// How many taskgroups of the process are cancelled and not yet ended. Finding the
/// taskgroup a task belongs to walks its ancestors (tasks do not copy their binding
/// group), once per task in a cancellable program; while this is 0, no walk can find a
/// cancelled group. Incremented after a group's flag is set, decremented as the group
/// ends. Relaxed: a reader that sees 0 runs as if its check came before the cancel,
/// which the asynchronous cancel construct allows, and one that sees more reads the
/// group's own flag with acquire.
inline std::atomic<int> g_cancelled_groups{0};
inline bool any_cancelled_group() noexcept {
    return g_cancelled_groups.load(std::memory_order_relaxed) != 0;
}
/// `cancel taskgroup` applies to task `rec`: it was created (itself or through its
/// ancestors) in a taskgroup that is now cancelled (meaningful while OMP_CANCELLATION is on).
bool in_cancelled_group(ext::task* rec) noexcept;

// ---- the calling context ------------------------------------------------------------

struct here {
    thread_state* th;
    root_ctx* rc;
};
/// The calling thread and its implicit task's explicit-task context (created on demand).
here current_here();
/// Whether the running task is final (its children are final and included).
inline bool running_task_is_final(const here& h) noexcept {
    return h.rc->current && (record_of(h.rc->current)->flags & f_final);
}
/// The running task's node (the current explicit task, or the implicit task).
inline node* current_node(const here& h) noexcept { return h.rc->current ? &h.rc->current->n : &h.rc->n; }
/// The taskgroup the running task belongs to: the innermost one it opened, else the one
/// it was created in (inherited through its ancestors); null if none.
tgroup* binding_group(const here& h) noexcept;

/// Innermost taskgroup of the running task (null if none).
inline tgroup* current_group(const here& h) noexcept {
    if (h.rc->current) {
        extra* x = extra_of(record_of(h.rc->current));
        return x ? x->tg : nullptr;
    }
    return h.rc->tg;
}
void set_current_group(const here& h, tgroup* g);
/// Dependence hash slot of the running task (for its children).
dephash** current_deps_slot(const here& h);

// ---- life of a task -------------------------------------------------------------------

/// What allocate() knows of a tool: `unknown` (the creating context's cache_room
/// decides whether a record of the caches serves, ompt::on() what a larger one is),
/// or, from an entry point that tested ompt::on() already, `absent` or `present`.
enum class tool_state { unknown, absent, present };

/// Allocates a task record for the running task (parent) as __kmpc_omp_task_alloc does
/// (inline: task_create.hpp).
/// `with_node`: depend follows for sure (gcc says so), so the record gets node_room.
template <tool_state Tool = tool_state::unknown>
inline kmp_task_t* allocate(const here& h, kmp_int32 flags, std::size_t sizeof_task,
                            std::size_t sizeof_shareds, kmp_routine_entry_t routine,
                            bool with_node = false);
// The per-task path (launch, run_included, task_spawn, execute_as) has an instance per
// `Observed`: with a tool (OMPT events and frames) and without. A per-task ABI entry
// point tests ompt::on() once and calls one of them, so that without a tool the rest of
// its path is the code of a LOOM_OMPT=OFF build; the overloads without the parameter
// test ompt::on() themselves, for callers off that path.

/// Makes a task allocated by allocate() known to its parent (counts) and runs it at
/// once (included) or queues it, unless it still waits for predecessors (`hold`).
/// `reported`: its OMPT task_create was reported already (dep.cpp)
/// (inline: task_create.hpp).
template <bool Observed>
inline void launch(const here& h, ext::task* rec, bool hold, bool reported = false);
inline void launch(const here& h, ext::task* rec, bool hold, bool reported = false);
/// The scheduler's entry of an explicit task taken from a queue (record's `run`).
void run_entry(ext::task* rec) noexcept;
/// Queues a task whose predecessors all completed (dep.cpp).
void make_ready(ext::task* rec) noexcept;
/// As make_ready, for a task whose last predecessor `done` completes now: when `done`
/// is the task run_entry runs on this thread, the first such successor runs next
/// here instead (continuation bypass, task.cpp).
void make_ready_after(ext::task* done, ext::task* rec) noexcept;
/// Starts a task that launch() counted with `hold` once it is ready: here when it is
/// included (final, team of one), else queued.
void start_counted(const here& h, ext::task* rec);
/// Pops the top of this worker's deque and runs it here if it is a descendant of
/// `owner` (the running task's node); true if it ran one.
bool help_one(node* owner);
/// Runs `rec` here as an included task of the running task (if0, final, team of one).
template <bool Observed>
void run_included(const here& h, ext::task* rec);
void run_included(const here& h, ext::task* rec);
/// Called when a task's body and its detach event are both done.
void complete(ext::task* rec, bool owner_inline) noexcept;
/// Frees a task allocated but never launched (taskloop pattern, zero-trip loop).
void discard(ext::task* rec) noexcept;

/// Runs queued descendants of `owner` (the running task's node) that are on top of this
/// worker's deque, then waits until the complete (want_r=false) or released
/// (want_r=true) count of `n` (owner's node or one of its taskgroups) is 0.
void wait_node(here h, node* n, node* owner, bool want_r);

// ---- the explicit-task constructs, as the ABI entry points of both compilers ask ----

/// A task record for the running task (`flags`: kmp task flags kf_*), its kmp_task_t
/// of `sizeof_task` bytes followed by `sizeof_shareds` bytes of shared-variable block.
inline kmp_task_t* task_alloc(kmp_int32 flags, std::size_t sizeof_task,
                              std::size_t sizeof_shareds, kmp_routine_entry_t entry,
                              bool with_node = false);
/// As task_alloc for a target task: a hidden helper task while helpers are enabled.
kmp_task_t* target_task_alloc(kmp_int32 flags, std::size_t sizeof_task,
                              std::size_t sizeof_shareds, kmp_routine_entry_t entry);
/// Launches a task made by task_alloc (queued, or run at once when it must be
/// included); from a running untied task on itself, queues its next part.
template <bool Observed>
inline void task_spawn(kmp_task_t* kt);
inline void task_spawn(kmp_task_t* kt);
/// Brackets the body of an undeferred task (if(0)) that the compiled code runs itself.
/// `ompt_frame`: the entry point's frame, the encountering task's enter_frame and the
/// undeferred task's exit_frame until undeferred_task_end (OMPT, with a tool only).
void undeferred_task_begin(kmp_task_t* kt, void* ompt_frame = nullptr);
void undeferred_task_end(kmp_task_t* kt);
/// detach(event): makes the task's completion wait for omp_fulfill_event; returns the
/// event handle.
void* allow_completion_event(kmp_task_t* kt);
/// taskwait: until the running task's children completed.
inline void task_wait();
/// taskyield: runs a queued child of the running task here, if one is on top.
void task_yield();

/// Parks the calling context on `s`, keeping its OpenMP view (th->current, the running
/// explicit task) across the switch.
void park(ext::wait_slot& s);

/// Runs the task body here. `owner_inline`: the context running us is the parent's
/// owner (taskwait popped us, or an included task): completion counts stay plain.
/// `from_loop`: the scheduler's loop started us on a fresh fiber.
template <bool Observed>
void execute_as(ext::task* rec, bool owner_inline, bool from_loop) noexcept;
void execute(ext::task* rec, bool owner_inline, bool from_loop) noexcept;

/// The bit of team member `it` in task_team::lending while its context parks here, or
/// 0: only a member on its own worker (and one of the first 64) lends it.
std::uint64_t lending_bit(const implicit_task* it) noexcept;
/// The task on top of this worker's deque if it belongs to team `tm` (marked as run
/// here: tied to this worker); else null, the deque as it was.
ext::task* pop_team_task(const team* tm) noexcept;

}  // namespace tasking
}  // namespace loom::omp

namespace loom::omp::tasking {
/// Opens / closes a taskgroup of the running task (taskgroup.cpp).
void open_group(const here& h);
void close_group(const here& h);
}  // namespace loom::omp::tasking

// The per-task path, inline (see there).
#include "tasking/task_create.hpp"
