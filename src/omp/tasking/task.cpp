// Explicit tasks on loom's scheduler: allocation, launch, execution, completion and
// release, taskwait, included tasks (if(0), final, teams of one). taskyield is in
// task_yield.cpp, how team waits take part in task_hooks.cpp, which worker runs a task
// taken from a queue in task_runner.cpp. The counting protocol is described in
// task.hpp and docs/omp_tasks.md.
#include "loom/ext/trace.hpp"
#include "tasking/task.hpp"
#include "tasking/inline_task.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#include "ompt/events.hpp"
#include "ompt/scheduled_task.hpp"
#include "tasking/dep.hpp"
#include "tasking/held_tasks.hpp"
#include "tasking/hidden_helper.hpp"
#include "tasking/task_runner.hpp"
#include "env/icv.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp::tasking {

namespace {

root_ctx* make_root(implicit_task* it) {
    auto* rc = allocate_or_stop([] { return new root_ctx; }, "a task context", sizeof(root_ctx));
    rc->it = it;
    rc->tm = it->tm;
    rc->immediate = it->tm == nullptr || it->nthreads <= 1;
    rc->smaller_than_pool = it->tm != nullptr && static_cast<unsigned>(it->nthreads) < ext::worker_count();
    it->tasking = rc;
    return rc;
}

inline root_ctx* root_of(implicit_task* it) {
    auto* rc = static_cast<root_ctx*>(it->tasking);
    if (__builtin_expect(rc == nullptr, 0)) rc = make_root(it);
    return rc;
}

inline void notify_waiter(std::uintptr_t w) noexcept {
    reinterpret_cast<ext::wait_slot*>(w & ~std::uintptr_t{3})->notify();
}

void release_chain(ext::task* rec) noexcept;

// After a remote RMW on node `x` that left `v`: wake the owner or release the task
// that waits for this count.
inline void after_rmw(node* x, std::int64_t v, bool c_changed, bool r_changed) noexcept {
    if (c_changed && c_of(v) == 0) {
        std::uintptr_t w = x->waiter.load(std::memory_order_acquire);
        if ((w & 3) == wait_c) notify_waiter(w);
    }
    if (r_changed && r_of(v) == 0) {
        std::uintptr_t w = x->waiter.load(std::memory_order_acquire);
        if (w == wait_final) {
            release_chain(record_of(reinterpret_cast<tdata*>(x)));
        } else if ((w & 3) == wait_r) {
            notify_waiter(w);
        }
    }
}

// Counts one child of `p` (released into `target`) down by c / r.
inline void account(node* p, node* target, int c, int r, bool owner_inline) noexcept {
    if (owner_inline) {
        p->created -= c;
        target->unreleased -= r;
        return;
    }
    if (target == p) {
        const std::int64_t d = c + r * r_one;
        if (d == 0) return;
        std::int64_t v = p->remote.fetch_sub(d, std::memory_order_acq_rel) - d;
        after_rmw(p, v, c != 0, r != 0);
        return;
    }
    if (c) {
        std::int64_t v = p->remote.fetch_sub(c, std::memory_order_acq_rel) - c;
        after_rmw(p, v, true, false);
    }
    if (r) {
        const std::int64_t d = r * r_one;
        std::int64_t v = target->remote.fetch_sub(d, std::memory_order_acq_rel) - d;
        after_rmw(target, v, false, true);
    }
}

inline node* release_target(ext::task* rec) noexcept {
    tgroup* g = rel_group(rec);
    return g ? &g->n : parent_node(rec);
}

void free_record(ext::task* rec) noexcept {
    if (extra* x = extra_of(rec)) {
        if (x->dn) deps::drop_node(x->dn);
        if (x->deps) deps::free_hash(x->deps);
        delete x->icvs;  // null unless the body ended abnormally
        x->~extra();
        free_raw(reinterpret_cast<ext::task*>(x));
    }
    // A record that holds the task's dependence node lives on while the hash of the
    // parent keeps the node: the node's last reference frees it.
    if (rec->flags & f_dn_inline) {
        deps::drop_node(deps::node_of(rec));
        return;
    }
    // A large record says so in its header (allocate_large_task sets size_class).
    if (rec->size_class != 0) ext::free_large_task(rec);
    else free_raw(rec);
}

// Releases an ended task whose released count reached 0 elsewhere, then its ancestors
// that were waiting only for it.
void release_chain(ext::task* rec) noexcept {
    while (rec) {
        node* p = parent_node(rec);
        node* target = release_target(rec);
        free_record(rec);
        const std::int64_t d = r_one;
        std::int64_t v = target->remote.fetch_sub(d, std::memory_order_acq_rel) - d;
        rec = nullptr;
        if (r_of(v) == 0) {
            std::uintptr_t w = target->waiter.load(std::memory_order_acquire);
            if (w == wait_final) {
                rec = record_of(reinterpret_cast<tdata*>(target));
            } else if ((w & 3) == wait_r) {
                notify_waiter(w);
            }
        }
        (void)p;
    }
}

// Puts back the ICVs the task's body changed (writable_icvs) in the implicit task it
// changed them in. Rare: only tasks that called a setter routine have them.
[[gnu::noinline, gnu::cold]] void restore_icvs(extra* x) noexcept {
    x->icvs->it->icv = x->icvs->icv;
    delete x->icvs;
    x->icvs = nullptr;
}

inline void end_icv_scope(ext::task* rec) noexcept {
    if (extra* x = extra_of(rec); __builtin_expect(x != nullptr, 0)) {
        if (x->icvs) restore_icvs(x);
    }
}

// The task's stand-in implicit task when it runs on a worker that is not a member of
// its team at the moment (or on a member of another team).
struct standin {
    implicit_task it;
    root_ctx rc;
};

// The stand-in's identity: the member's (or creator's) fields that hold for the whole
// region, one by one. The model runs on meanwhile and writes its per-region state
// (share_done, region_ending, worksharing counters, its OMPT frame): a copy of the
// whole record read those while they were written (ThreadSanitizer, LLVM's
// tasking/issue-69733.c: a hidden helper standing in for a member at its join).
// Worksharing state stays empty: no worksharing construct binds to an explicit task.
implicit_task standin_identity(const implicit_task& model) noexcept {
    implicit_task it;
    it.tm = model.tm;
    it.parent = model.parent;
    it.tid = model.tid;
    it.nthreads = model.nthreads;
    it.level = model.level;
    it.active_level = model.active_level;
    it.team_num = model.team_num;
    it.num_teams = model.num_teams;
    it.in_league = model.in_league;
    it.worker = model.worker;
    it.target_root = model.target_root;
    it.icv = model.icv;
    it.ompt_task = model.ompt_task;
    it.ompt_parallel = model.ompt_parallel;
    it.ompt_encountering = model.ompt_encountering;
    it.ompt_frame = model.ompt_frame;  // set as the member enters the region's code
    return it;
}

}  // namespace

bool is_omp_task(ext::task* t) noexcept { return t->run == &run_entry; }

extra* ensure_extra(ext::task* rec) {
    if (extra* x = extra_of(rec)) return x;
    ext::task* raw = new_record();
    static_assert(sizeof(extra) <= sizeof(ext::task) && alignof(extra) > slot_extra);
    auto* x = ::new (static_cast<void*>(raw)) extra;
    x->rel = static_cast<tgroup*>(data_of(rec)->slot);  // untagged: no block yet
    // Release: a child reading the slot on another thread finds `rel` filled in.
    std::atomic_ref<void*>(data_of(rec)->slot)
        .store(reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(x) | slot_extra),
               std::memory_order_release);
    return x;
}

// Out of line on purpose: it reads the TLS pointer inline, which is safe only in a
// function that does not suspend (its callers do).
__attribute__((noinline)) here current_here() {
    thread_state* th = this_thread_no_suspend();
    return here{th, root_of(th->current)};
}

void set_current_group(const here& h, tgroup* g) {
    if (h.rc->current) {
        ensure_extra(record_of(h.rc->current))->tg = g;
    } else {
        h.rc->tg = g;
    }
}

dephash** current_deps_slot(const here& h) {
    if (h.rc->current) return &ensure_extra(record_of(h.rc->current))->deps;
    return &h.rc->deps;
}

std::uint64_t lending_bit(const implicit_task* it) noexcept {
    team* tm = it->tm;
    // it->nthreads, not tm->nthreads: a member lingering after its region reads this
    // while its master may already be setting up the next region (member.cpp).
    if (!tm || it->tid >= 64 || it->tid >= it->nthreads) return 0;
    // it->worker: the slot's copy is on the line the master writes at every fork.
    if (it->worker != ext::current_worker()) return 0;
    return std::uint64_t{1} << it->tid;
}

ext::task* pop_team_task(const team* tm) noexcept {
    ext::task* t = ext::pop_local();
    if (!t) return nullptr;
    if (is_omp_task(t) && data_of(t)->root->tm == tm) {
        t->flags |= f_bounced;  // runs on this worker: tied here
        return t;
    }
    ext::push_local(t);
    return nullptr;
}

namespace {
// A task of team `tm` that this blocked waiter can run here: one on its own deque (no
// other worker may be awake to steal it), or a child of its running task that a worker
// outside the team holds (held_tasks.hpp: there whatever mailbox it was sent to).
ext::task* runnable_while_blocked(team* tm, root_ctx* rc) noexcept {
    if (ext::task* t = pop_team_task(tm)) return t;
    return held::take(tm, rc->current ? &rc->current->n : &rc->n);
}

// A wait that would block this thread (no fiber stack to park on: the address space is
// full). The member must not say it lends its worker: a task sent to its mailbox would
// never run, and the creator waiting for it would wait for ever; and its worker's loop
// does not run while it waits. So it runs the team's tasks it can reach itself, looking
// again every millisecond, until notified.
void wait_without_fiber(ext::wait_slot& s, team* tm, root_ctx* rc) {
    while (!s.notified()) {
        if (tm && rc) {
            if (ext::task* t = runnable_while_blocked(tm, rc)) {
                execute(t, false, false);  // counted as a remote completion: the wait folded its counts
                continue;
            }
        }
        (void)s.wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(1));
    }
}
}  // namespace

void park(ext::wait_slot& s) {
    thread_state* th = this_thread();
    const context_view view = context_view::of(th);
    implicit_task* it = view.current;
    auto* rc = static_cast<root_ctx*>(it->tasking);
    tdata* cur = rc ? rc->current : nullptr;
    const std::uint64_t bit = lending_bit(it);
    team* tm = it->tm;
    bool mine = false;
    const bool parked = ext::can_park_now();
    if (!parked) {
        member_slot* slot = tm && it->tid >= 0 && it->tid < tm->nthreads && &tm->slots[it->tid].task == it
                                ? &tm->slots[it->tid]
                                : nullptr;
        const blocking_wait marked(slot ? &slot->sleep : nullptr);
        wait_without_fiber(s, tm, rc);
    } else {
        // Already set when this park is nested in a barrier wait (run_one): leave it.
        mine = bit && !(tm->tasks.lending.fetch_or(bit, std::memory_order_acq_rel) & bit);
        // While parked, the worker runs other contexts: present the thread to them as
        // outside every region. Left at `it`, a member task started meanwhile took it
        // for its own (run_member's `saved`), and a plain loom task calling omp_* read
        // this context's identity, which dangles once an untied context resumes
        // elsewhere and ends.
        context_view::present_outside(th);
        s.wait();
    }
    if (mine) tm->tasks.lending.fetch_and(~bit, std::memory_order_acq_rel);
    // Tied contexts resume on the same worker, so `th` is still ours; restore our view,
    // which tasks run by this worker meanwhile may have changed.
    th = this_thread();
    view.restore(th);
    if (rc) rc->current = cur;
    // Other contexts may have run here meanwhile: tell a tool this one runs again (it
    // goes on top of the thread's view, ompt/scheduled_task.hpp).
    if (parked && ompt::on()) [[unlikely]]
        ompt::context_resumed(ompt::current_task_data());
}

// `from_loop`: the scheduler's loop started us on a fresh fiber, so th->current is
// whatever a parked context left there and is not ours to trust.
namespace {

// Runs the task's body; an untied task re-queued by one of its parts runs its next part
// at once (see docs/omp_tasks.md).
inline void run_parts(kmp_task_t* kt, ext::task* rec, kmp_int32 gtid) {
    do {
        rec->flags &= static_cast<std::uint8_t>(~f_requeue);
        kt->routine(gtid, kt);
    } while (rec->flags & f_requeue);
}

// LOOM_TRACE: every explicit task's body is one "omp task" slice, nested in the
// scheduler's slice when the worker loop ran it. Out of line, so the untraced path pays
// one load and a branch.
[[gnu::noinline, gnu::cold]] void run_parts_traced(kmp_task_t* kt, ext::task* rec, kmp_int32 gtid) {
    ext::trace_begin_task("omp task", rec);  // the arrows to this task end here
    run_parts(kt, rec, gtid);
    ext::trace_end();
}

// With a tool: this function's frame, the caller frame of the task's code, is the
// task's exit_frame while the body runs (the body's __builtin_frame_address(1)).
[[gnu::noinline, gnu::cold]] void run_parts_observed(kmp_task_t* kt, ext::task* rec, kmp_int32 gtid,
                                                     ompt_frame_t* frame) {
    frame->exit_frame.ptr = __builtin_frame_address(0);
    if (ext::tracing()) run_parts_traced(kt, rec, gtid);
    else run_parts(kt, rec, gtid);
    frame->exit_frame.ptr = nullptr;
}

}  // namespace

bool in_cancelled_group(ext::task* rec) noexcept {
    if (!any_cancelled_group()) return false;
    for (ext::task* r = rec;;) {
        if (tgroup* g = rel_group(r)) return g->is_cancelled();
        if (!parent_is_task(r)) return false;
        r = record_of(reinterpret_cast<tdata*>(parent_node(r)));
    }
}

// execute() with (Observed) or without a tool's events and frames. Two copies so that
// the one every task pays for without a tool keeps none of their tests or live values
// (~11 instructions per task in execute alone, callgrind, fib with a task per call).
namespace {
// The implicit task of `tm` that the calling worker runs as a member, if any.
implicit_task* member_here(team* tm) noexcept { return member_on(tm, ext::current_worker()); }
}  // namespace

template <bool Observed>
void execute_as(ext::task* rec, bool owner_inline, bool from_loop) noexcept {
    tdata* d = data_of(rec);
    kmp_task_t* kt = ktask_of(rec);
    thread_state* th = this_thread();
    implicit_task* prev_it = th->current;
    root_ctx* home = d->root;
    implicit_task* use = prev_it;
    root_ctx* rc = nullptr;
    standin* si = nullptr;
    alignas(standin) unsigned char si_mem[sizeof(standin)];
    if (prev_it == home->it) {
        // Our creator's own thread (its context is on this stack or parked here and
        // cannot end before we are released).
        rc = root_of(prev_it);
    } else if (!from_loop && prev_it->tm == home->tm && home->tm != nullptr) {
        // Inline on a context of the same team (a member in a barrier, or a task of the
        // team): that context stays on this stack while we run.
        rc = root_of(prev_it);
    } else {
        // A worker that runs a task of the team from its scheduler loop: act as the
        // member it is (or as the creator when it is not a member), with a private
        // context so no other context of this thread is touched.
        implicit_task* member = home->tm ? member_here(home->tm) : nullptr;
        implicit_task* model = member ? member : home->it;
        si = ::new (si_mem) standin{standin_identity(*model), root_ctx{}};
        if constexpr (Observed) ompt::stand_in(&si->it, member);
        si->it.tasking = &si->rc;
        si->rc.it = &si->it;
        si->rc.tm = home->tm;
        si->rc.standin = true;
        si->rc.immediate = home->immediate;
        si->rc.smaller_than_pool = home->smaller_than_pool;
        use = &si->it;
        rc = &si->rc;
    }
    if (from_loop) prev_it = &th->initial;
    tdata* prev_cur = rc->current;
    // cancel taskgroup: tasks of a cancelled group that did not start are discarded.
    const bool run_body = (rec->user & u_cancel_check) == 0 || !in_cancelled_group(rec);
    ompt_data_t* ompt_prior = nullptr;
    if constexpr (Observed)
        ompt_prior = run_body ? ompt::task_switch_in(prev_cur, use, d) : ompt::task_discarded(prev_cur, use, d);
    rc->current = d;
    th->current = use;
    rec->flags |= f_running;

    if (run_body && kt->routine) {  // a null routine is an empty task (taskwait nowait)
        if (__builtin_expect(ompt_prior != nullptr, 0)) run_parts_observed(kt, rec, th->gtid, ompt::task_frame_of(d));
        else if (__builtin_expect(ext::tracing(), 0)) run_parts_traced(kt, rec, th->gtid);
        else run_parts(kt, rec, th->gtid);
    }
    if (rec->flags & f_destructors) kt->data1.destructors(th->gtid, kt);
    rec->flags &= static_cast<std::uint8_t>(~f_running);
    end_icv_scope(rec);
    const bool detached = (rec->user & u_detach) != 0;
    if (ompt_prior && !detached) ompt::task_switch_out(d, ompt_prior);

    // Tied: still on the thread that started us.
    th->current = prev_it;
    rc->current = prev_cur;
    if (si) si->~standin();

    if (detached && !detached_body_ended(rec, ompt_prior)) {
        // omp_fulfill_event completes it. Its parent counts it as complete only
        // then, so an included (owner_inline) detached task is counted elsewhere.
        // The owner's plain counts keep it; omp_fulfill_event counts it down
        // through the remote word like any task that ends elsewhere.
        return;
    }
    complete(rec, owner_inline);
}
template void execute_as<false>(ext::task*, bool, bool) noexcept;
template void execute_as<true>(ext::task*, bool, bool) noexcept;

void execute(ext::task* rec, bool owner_inline, bool from_loop) noexcept {
    if (ompt::on()) [[unlikely]]
        execute_as<true>(rec, owner_inline, from_loop);
    else
        execute_as<false>(rec, owner_inline, from_loop);
}

// Continuation bypass: when the task run_entry runs completes and makes a dependent
// task ready, that successor runs next on this thread without a queue round trip (a
// deque push, a wake-up fence, a pop, and the mailbox hop every queued task takes
// before it first runs) -- as TBB's continuation bypass and the hand-written Task
// Bench graph do. Only one successor per completion; the others are queued, where
// idle workers steal them. Thread-local: the record run_entry executes on this
// thread (armed), and the successor kept for it. A task that parked meanwhile may
// find the slot re-armed by another run_entry on this thread; then it queues as
// usual.
namespace {
thread_local ext::task* t_bypass_from = nullptr;
thread_local ext::task* t_bypass_next = nullptr;
}  // namespace

// Called by the scheduler: the task was taken from a queue (not run inline). A task
// must resume on the worker that started it when it parks (tied): one this worker may
// run starts here, its context tied to the worker (ext::tie_to_this_worker); one for a
// member goes through that member's mailbox (runner_for), which ties it there.
void run_entry(ext::task* rec) noexcept {
    if (!(rec->flags & f_bounced)) {
        int w = ext::current_worker();
        if (w >= 0) {
            rec->flags |= f_bounced;
            const int runner = runner_for(rec, w);
            if (runner == handed_to_member) return;
            if (runner != w) {
                ext::submit_to(rec, static_cast<unsigned>(runner));
                return;
            }
            // Runs here: tied to this worker now, as it would be coming from this
            // worker's mailbox. Not through the mailbox: its owner's member context may
            // resume from there first and then block its thread in a wait with no fiber
            // to park on (the address space full), and the task would never run
            // (tests/omp/resource_address_space.c beside a CPU hog); it also saves the hop.
            ext::tie_to_this_worker();
        }
    }
    for (;;) {
        t_bypass_from = rec;
        execute(rec, false, true);
        ext::task* next = t_bypass_next;
        t_bypass_next = nullptr;
        t_bypass_from = nullptr;
        if (!next) return;
        const int w = ext::current_worker();
        if (w < 0 || !runs_here(next, w)) {
            create_detail::queue_task(next);
            return;
        }
        next->flags |= f_bounced;  // on the worker that ran its predecessor: tied here
        rec = next;
    }
}

void complete(ext::task* rec, bool owner_inline) noexcept {
    tdata* d = data_of(rec);
    if (rec->user & u_deps) deps::task_done(rec);
    node* p = parent_node(rec);
    node* target = release_target(rec);
    node& n = d->n;
    if (n.settled()) {
        // No child escaped: complete and released at once.
        if (extra* x = extra_of(rec)) {
            if (x->deps) {
                deps::free_hash(x->deps);
                x->deps = nullptr;
            }
        }
        free_record(rec);
        account(p, target, 1, 1, owner_inline);
        return;
    }
    if (extra* x = extra_of(rec)) {
        if (x->deps) {
            deps::free_hash(x->deps);
            x->deps = nullptr;
        }
    }
    account(p, p, 1, 0, owner_inline);
    n.waiter.store(wait_final, std::memory_order_relaxed);
    // The released count only (task.hpp, "Who may touch a node"): nobody waits for the
    // complete count of an ended task.
    const std::int64_t add = n.unreleased * r_one;
    n.unreleased = 0;
    std::int64_t v = n.remote.fetch_add(add, std::memory_order_acq_rel) + add;
    if (r_of(v) != 0) return;  // the last child to be released releases us
    free_record(rec);
    account(p, target, 0, 1, owner_inline);
}

void discard(ext::task* rec) noexcept { free_record(rec); }

void end_inline_counted(ext::task* rec) noexcept {
    end_icv_scope(rec);
    parent_node(rec)->created += 1;
    release_target(rec)->unreleased += 1;
    complete(rec, true);
}

void make_ready(ext::task* rec) noexcept { create_detail::queue_task(rec); }

void make_ready_after(ext::task* done, ext::task* rec) noexcept {
    if (done == t_bypass_from && t_bypass_next == nullptr && rec->prio == loom::priority::normal &&
        (rec->user & u_helper) == 0 && !ext::high_priority_pending()) {
        t_bypass_next = rec;  // run_entry runs it once `done` has finished completing
        if (ext::tracing()) ext::trace_flow(rec, "release");  // not submitted: draw the arrow here
        return;
    }
    create_detail::queue_task(rec);
}

template <bool Observed>
void run_included(const here& h, ext::task* rec) {
    node* p = parent_node(rec);
    p->created += 1;
    release_target(rec)->unreleased += 1;
    (void)h;
    execute_as<Observed>(rec, true, false);
}
template void run_included<false>(const here&, ext::task*);
template void run_included<true>(const here&, ext::task*);

void run_included(const here& h, ext::task* rec) {
    if (ompt::on()) [[unlikely]]
        run_included<true>(h, rec);
    else
        run_included<false>(h, rec);
}

// Not while high-priority work is queued: the waiter then parks (or yields) and the
// worker's scheduler chooses, highest priority first; running our normal children
// inline here would put them before a priority(p) task or a critical one.
bool help_one(node* owner) {
    if (ext::high_priority_pending()) return false;
    ext::task* t = ext::pop_local();
    if (!t) return false;
    bool mine = false;
    if (is_omp_task(t)) {
        node* q = parent_node(t);
        ext::task* r = t;
        for (int k = 0; k < 64; ++k) {
            if (q == owner) {
                mine = true;
                break;
            }
            if (!parent_is_task(r)) break;
            r = record_of(reinterpret_cast<tdata*>(q));
            q = parent_node(r);
        }
    }
    if (!mine) {
        ext::push_local(t);
        return false;
    }
    t->flags |= f_bounced;
    execute(t, parent_node(t) == owner, false);
    return true;
}

void start_counted(const here& h, ext::task* rec) {
    (void)h;
    if ((rec->user & u_included) || (data_of(rec)->root->immediate && !(rec->user & u_helper))) {
        execute(rec, true, false);
    } else {
        create_detail::queue_task(rec);
    }
}

void wait_node(here h, node* n, node* owner, bool want_r) {
    auto pending = [&] { return want_r ? (n->created | n->unreleased) != 0 : n->created != 0; };
    if (!pending()) return;
    // 1. Our own descendants still on top of this worker's deque run here.
    while (pending() && help_one(owner)) {
    }
    (void)h;
    if (!pending()) return;
    // 2. The rest ends elsewhere: add our counts once and sleep until they are 0.
    // Only the count waited for is raised (task.hpp, "Who may touch a node").
    ext::wait_slot s;
    n->waiter.store(reinterpret_cast<std::uintptr_t>(&s) | (want_r ? wait_r : wait_c),
                    std::memory_order_relaxed);
    const std::int64_t add = want_r ? n->unreleased * r_one : n->created;
    if (want_r) n->unreleased = 0;
    else n->created = 0;
    std::int64_t v = n->remote.fetch_add(add, std::memory_order_acq_rel) + add;
    if (want_r ? r_of(v) != 0 : c_of(v) != 0) park(s);
    n->waiter.store(0, std::memory_order_relaxed);
    if (want_r && n->created != 0) {
        // Every child released into this node is complete: its completions are settled,
        // and this RMW, ours, is the one that brings the complete count back to 0 (or
        // leaves what children released into a taskgroup have still to count).
        n->remote.fetch_add(n->created, std::memory_order_acq_rel);
        n->created = 0;
    }
}

}  // namespace loom::omp::tasking

namespace loom::omp::tasking {

kmp_task_t* target_task_alloc(kmp_int32 flags, std::size_t sizeof_task,
                              std::size_t sizeof_shareds, kmp_routine_entry_t entry) {
    kmp_task_t* kt = task_alloc(flags, sizeof_task, sizeof_shareds, entry);
    // libomp makes every target task a hidden helper task while helpers are enabled,
    // whatever the flags say (kmp_tasking.cpp, __kmpc_omp_target_task_alloc).
    if (hidden_helper::enabled()) record_of(kt)->user |= u_helper;
    return kt;
}

void undeferred_task_begin(kmp_task_t* kt, void* ompt_frame) {
    here h = current_here();
    ext::task* rec = record_of(kt);
    node* p = parent_node(rec);
    p->created += 1;
    release_target(rec)->unreleased += 1;
    if (ompt::on()) {
        // The encountering task's enter_frame is set when task_create reports it.
        ompt::undeferred_frames(h.rc->current, h.rc->it, data_of(rec), ompt_frame);
        ompt::task_launched(rec, true);
        ompt::task_switch_in(h.rc->current, h.rc->it, data_of(rec));
    }
    h.rc->current = data_of(rec);
    rec->flags |= f_running;
}

void undeferred_task_end(kmp_task_t* kt) {
    here h = current_here();
    ext::task* rec = record_of(kt);
    // An undeferred untied task: clang's first part (and every part that reaches a
    // scheduling point) re-queues the task through __kmpc_omp_task on itself and
    // returns, leaving the rest of the body in later parts (kt->part_id). The
    // encountering task is suspended until this task completes, so its remaining parts
    // run here, on this thread, before the task may complete.
    if (rec->flags & f_requeue) {
        do {
            rec->flags &= static_cast<std::uint8_t>(~f_requeue);
            kt->routine(this_thread()->gtid, kt);
        } while (rec->flags & f_requeue);
        h = current_here();  // a part may have waited and resumed on another thread
    }
    rec->flags &= static_cast<std::uint8_t>(~f_running);
    end_icv_scope(rec);
    h.rc->current = parent_is_task(rec) ? reinterpret_cast<tdata*>(parent_node(rec)) : nullptr;
    const bool detached = (rec->user & u_detach) != 0;
    ompt_data_t* ompt_prior = nullptr;
    if (ompt::on()) {
        ompt::undeferred_frames(h.rc->current, h.rc->it, data_of(rec), nullptr);
        ompt_prior = ompt::return_target(h.rc->current, h.rc->it);
        if (!detached) ompt::task_switch_out(data_of(rec), ompt_prior);
    }
    if (rec->flags & f_destructors) kt->data1.destructors(h.th->gtid, kt);
    if (detached && !detached_body_ended(rec, ompt_prior)) return;
    complete(rec, true);
}

void task_wait_observed(const void* ra, void* frame) {
    ompt::observed_entry(ra, frame, [](const void* at) {
        LOOM_OMPT_EVENT(sync_region(ompt_sync_region_taskwait, ompt_scope_begin, at));
        task_wait();
        LOOM_OMPT_EVENT(sync_region(ompt_sync_region_taskwait, ompt_scope_end, at));
    });
}

}  // namespace loom::omp::tasking

namespace loom::omp {

task_icvs& writable_icvs() {
    using namespace tasking;
    thread_state* th = this_thread();
    implicit_task* it = th->current;
    auto* rc = static_cast<root_ctx*>(it->tasking);
    if (rc && rc->current) {
        extra* x = ensure_extra(record_of(rc->current));
        // Saved once per task: its later changes, and those of the tasks it runs
        // included (they save and restore their own), stay within its data environment.
        if (!x->icvs) x->icvs = new saved_icvs{it, it->icv};
    }
    return it->icv;
}

}  // namespace loom::omp

// ---- omp_* routines of the explicit-task layer ------------------------------------------

using namespace loom::omp;
using namespace loom::omp::tasking;

LOOM_OMP_API int omp_in_final() {
    thread_state* th = this_thread();
    auto* rc = static_cast<root_ctx*>(th->current->tasking);
    return rc && running_task_is_final(here{th, rc}) ? 1 : 0;
}

LOOM_OMP_API int omp_in_explicit_task() {
    thread_state* th = this_thread();
    auto* rc = static_cast<root_ctx*>(th->current->tasking);
    return rc && rc->current ? 1 : 0;
}
