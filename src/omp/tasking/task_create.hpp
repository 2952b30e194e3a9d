// Creating and launching an explicit task, and taskwait: the per-task path, inline so
// that the ABI entry points of both compilers (kmpc/tasking.cpp, gomp/) pay no call of
// their own on top of it (a fib(n) task tree runs it once per call). Included at the
// end of task.hpp: every user of task.hpp sees these definitions.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>

#include "env/icv.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/ext/trace.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "tasking/hidden_helper.hpp"
#include "ompt/events.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

// While a tool is active every explicit task's record is a heap block, never one of
// the per-thread caches: the program itself writes a task's firstprivates and shareds
// into its record, and a race checker on OMPT (Archer under ThreadSanitizer) sees the
// heap's allocations but not loom's caches. A cached record, read by a task on one
// thread and handed (through the depot) to a task created on another, would carry the
// first task's accesses with no happens-before edge any OMPT event implies: a false
// race report. A size past every pooled class makes allocate_large_task use the heap.
inline std::size_t heap_storage(std::size_t need) noexcept {
    const std::size_t bytes = sizeof(tdata) + need;
    return bytes > ext::max_pooled_storage ? bytes : ext::max_pooled_storage + 1;
}

/// Makes record `rec` a child of the running task of `h`: its parent link, its flags
/// (`own_flags`, plus f_final when `final_clause` or when the parent is final, whose
/// children are included), an empty node, the implicit-task context and the taskgroup
/// it is created in.
inline void make_child(const here& h, ext::task* rec, std::uint8_t own_flags, bool final_clause) noexcept {
    tdata* parent = h.rc->current;
    node* pn = parent ? &parent->n : &h.rc->n;
    rec->owner = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(pn) | (parent ? 1 : 0));
    rec->run = &run_entry;
    const bool in_final = parent && (record_of(parent)->flags & f_final);
    rec->flags = static_cast<std::uint8_t>(own_flags | ((final_clause || in_final) ? f_final : 0));
    rec->user = in_final ? (u_explicit | u_included) : u_explicit;
    tdata* d = data_of(rec);
    ::new (&d->n) node;
    d->root = parent ? parent->root : h.rc;
    d->slot = current_group(h);
}

template <tool_state Tool>
inline kmp_task_t* allocate(const here& h, kmp_int32 flags, std::size_t sizeof_task,
                     std::size_t sizeof_shareds, kmp_routine_entry_t routine, bool with_node) {
    const std::size_t shareds_off = (sizeof_task + 7) & ~std::size_t{7};
    const std::size_t need = shareds_off + sizeof_shareds;
    // A dependence node at the end of the record spares the task a record of its own
    // and an extra block to find it (dep.cpp, deps::place).
    const std::size_t want = need + (with_node || routine == h.rc->node_room_for ? node_room : 0);
    ext::task* rec;
    std::uint8_t fl = 0;
    // No test of ompt::on() on the way to a cached record: clang's per-task path tests
    // it once, in __kmpc_omp_task; gcc's GOMP_task knows (Tool) and tests it once too.
    const std::size_t room =
        Tool == tool_state::unknown ? h.rc->cache_room : cache_room_for(Tool == tool_state::present);
    if (__builtin_expect(want <= room, 1)) {
        rec = new_record();
    } else {
        const bool heap = Tool == tool_state::unknown ? ompt::on() : Tool == tool_state::present;
        const std::size_t storage = heap ? heap_storage(want) : sizeof(tdata) + want;
        rec = allocate_or_stop([storage] { return ext::allocate_large_task(storage); },
                               "a task record", storage);
    }
    if (flags & kf_tied) fl |= f_tied;
    if (flags & kf_destructors) fl |= f_destructors;
    make_child(h, rec, fl, (flags & kf_final) != 0);
    kmp_task_t* kt = ktask_of(rec);
    kt->shareds = sizeof_shareds ? reinterpret_cast<char*>(kt) + shareds_off : nullptr;
    kt->routine = routine;
    kt->part_id = 0;
    if (flags & kf_detachable) {
        rec->user |= u_detach;
        ensure_extra(rec);
    }
    if (flags & kf_priority) rec->user |= u_prio;  // read at launch: data2 is filled later
    rec->next = reinterpret_cast<ext::task*>(need);   // size, for taskloop (until queued)
    return kt;
}

namespace create_detail {

struct fixed_icvs {
    bool cancellation;
    int max_priority;
    bool throttle;  // KMP_ENABLE_TASK_THROTTLING (default on, as libomp)
};
inline const fixed_icvs& fixed() {
    static const fixed_icvs f{globals().cancellation, globals().max_task_priority, [] {
                                  const char* e = std::getenv("KMP_ENABLE_TASK_THROTTLING");
                                  return !(e && e[0] == '0' && e[1] == 0);
                              }()};
    return f;
}

// Task throttling: a task that already has this many deferred children not known to
// be complete runs the next one itself (libomp serializes when a thread's 256-entry
// deque is full), so a producer cannot flood the queues.
inline constexpr std::int32_t throttle_limit = 256;

inline bool too_many_children(node* p) noexcept {
    if (p->created < throttle_limit) return false;
    // Count the ones that completed elsewhere (relaxed: only a heuristic).
    return p->created + c_of(p->remote.load(std::memory_order_relaxed)) >= throttle_limit;
}
// Queues a task that may start: a hidden helper task goes to the helper threads.
// A team smaller than the pool leaves workers outside it; the core's hand-off to an
// idle spinning worker could give the task to one of them, which only holds it until
// a member parks (runner_for), so such a team's tasks are queued, not handed off.
inline void queue_task(ext::task* rec) {
    if (__builtin_expect((rec->user & u_helper) != 0, 0)) {
        hidden_helper::submit(rec, this_thread()->gtid);
        return;
    }
    if (data_of(rec)->root->smaller_than_pool)
        ext::submit_queued(rec);
    else
        ext::submit(rec);
}

}  // namespace create_detail

template <bool Observed>
inline void launch(const here& h, ext::task* rec, bool hold, bool reported) {
    using namespace create_detail;
    (void)h;
    if constexpr (Observed) {
        if (!reported) ompt::task_launched(rec, false);
    }
    kmp_task_t* kt = ktask_of(rec);
    node* p = parent_node(rec);
    tgroup* g = rel_group(rec);
    root_ctx* home = data_of(rec)->root;
    const fixed_icvs& f = fixed();
    if (f.cancellation && (g || parent_is_task(rec)) && !(rec->user & u_body_destroys))
        rec->user |= u_cancel_check;
    if (f.max_priority > 0 && (rec->user & u_prio)) {
        // priority(0) is normal work; every p in 1..max is served before it, higher p
        // first: the core orders high-priority tasks by a level of 1..255, p itself
        // when max <= 255, else p scaled up (ceiling) so that every p > 0 keeps a
        // level above normal work and larger p never gets a smaller level.
        int pr = kt->data2.priority;
        if (pr > f.max_priority) pr = f.max_priority;
        if (pr > 0) {
            rec->prio = loom::priority::high;
            rec->level = static_cast<std::uint8_t>(
                f.max_priority <= 255 ? pr : (static_cast<long>(pr) * 255 + f.max_priority - 1) / f.max_priority);
        }
    }
    // Hidden helper tasks run on the helpers even from a team of one (libomp does so).
    const bool may_include = !(rec->user & u_helper);
    if (!hold && ((rec->user & u_included) ||
                  (may_include && (home->immediate || (f.throttle && too_many_children(p)))))) {
        run_included<Observed>(h, rec);
        return;
    }
    p->created += 1;
    (g ? &g->n : p)->unreleased += 1;
    if (!parent_is_task(rec) && !home->phase_tasks) {
        // The implicit task itself created it (so `home` is the running context).
        home->phase_tasks = true;
        if (home->tm) home->tm->tasks.busy.fetch_add(1, std::memory_order_acq_rel);
    }
    // LOOM_TRACE: a task held for its dependences gets its creator's arrow now; the
    // releasing predecessor's submit adds its own.
    if (hold && ext::tracing()) ext::trace_flow(rec, "create", true);
    if (hold) return;
    queue_task(rec);
}

inline void launch(const here& h, ext::task* rec, bool hold, bool reported) {
    if (ompt::on()) [[unlikely]]
        launch<true>(h, rec, hold, reported);
    else
        launch<false>(h, rec, hold, reported);
}

inline kmp_task_t* task_alloc(kmp_int32 flags, std::size_t sizeof_task, std::size_t sizeof_shareds,
                       kmp_routine_entry_t entry, bool with_node) {
    return allocate(current_here(), flags, sizeof_task, sizeof_shareds, entry, with_node);
}

template <bool Observed>
inline void task_spawn(kmp_task_t* kt) {
    ext::task* rec = record_of(kt);
    if (rec->flags & f_running) {
        // An untied task re-queues itself for its next part: run it again when this
        // part returns (on this worker; it may resume anywhere, so here is fine).
        rec->flags |= f_requeue;
        return;
    }
    launch<Observed>(here{nullptr, nullptr}, rec, false);
}

inline void task_spawn(kmp_task_t* kt) {
    if (ompt::on()) [[unlikely]]
        task_spawn<true>(kt);
    else
        task_spawn<false>(kt);
}

inline void task_wait() {
    here h = current_here();
    node* n = current_node(h);
    wait_node(h, n, n, false);
}

/// The tool path of both ABIs' taskwait entry points: task_wait between the taskwait's
/// sync-region events, with the task's enter_frame at `frame` and `ra` (the entry
/// point's caller) as codeptr_ra (task.cpp).
void task_wait_observed(const void* ra, void* frame);

}  // namespace loom::omp::tasking
