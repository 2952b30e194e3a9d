// The member side of a parallel region: a member task runs its share, joins, then
// lingers on its team's start word until the next region names it or it retires.
// Protocol: team.hpp and docs/omp.md ("Fork and join").
#include <chrono>

#include "env/affinity.hpp"
#include "ompt/events.hpp"
#include "parallel/claims.hpp"
#include "env/icv.hpp"
#include "parallel/lifecycle.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

// Initialises member `i`'s implicit task for the region now set up in `t`.
void setup_task(team* t, int i, implicit_task& it, int worker) {
    it.region_ending = false;
    std::atomic_ref(it.share_done).store(false, std::memory_order_relaxed);
    it.tm = t->league ? nullptr : t;
    it.parent = t->parent;
    if (ompt::on()) [[unlikely]] it.ompt_encountering = t->ompt_encountering;
    it.tid = t->league ? 0 : i;
    it.nthreads = t->league ? 1 : t->nthreads;
    it.level = t->league ? t->parent->level : t->level;
    it.active_level = t->league ? t->parent->active_level : t->active_level;
    it.in_league = t->league || t->parent->in_league;
    it.team_num = t->league ? i : t->parent->team_num;
    it.num_teams = t->league ? t->nthreads : t->parent->num_teams;
    it.holds_claim = true;
    it.worker = worker;
    it.icv = t->child_icvs;
    it.ws_count = 0;
    it.single_count = 0;
    it.reduce_method = 0;
    it.loop = loop_state{};
}

void run_league_team_observed(implicit_task& team, ompt_data_t& league, kmpc_micro fn, int gtid, int argc,
                              void** args) {
    // The runtime calls the body of the team's region of one.
    constexpr int flags = ompt_parallel_invoker_runtime | ompt_parallel_team;
    ompt::league_initial_task(&team, &league, ompt_scope_begin, team.num_teams, team.team_num);
    const void* ra = ompt::parallel_begin(&team, &team.ompt_parallel, 1, flags);
    const ompt_data_t initial = team.ompt_task;
    ompt::implicit_task_begin(&team, &team.ompt_parallel, 1);
    invoke_microtask(fn, gtid, 0, argc, args, &team.ompt_frame);
    ompt::implicit_task_end(&team, 1);
    team.ompt_task = initial;
    ompt::parallel_end(&team, &team.ompt_parallel, flags, ra);
    ompt::league_initial_task(&team, &league, ompt_scope_end, team.num_teams, team.team_num);
}

// Runs member i's share of the region: one implicit task, or for a host teams league
// the teams i, i + m, i + 2m, ... one after another.
void run_share(team* t, int i, implicit_task& it, thread_state* th) {
    if (!t->league) {
        begin_implicit_task(&it);
        if (ompt::on()) ompt::implicit_task_begin(&it, &t->ompt_parallel, t->nthreads);
        traced_slice slice(t->trace_name);
        invoke_microtask(t->fn, th->gtid, i, t->argc, t->args, ompt::on() ? &it.ompt_frame : nullptr);
        return;
    }
    int nteams = t->league_thread_limit;  // reused: number of teams requested
    int m = t->nthreads;
    for (int j = i; j < nteams; j += m) {
        it.team_num = j;
        it.num_teams = nteams;
        it.ws_count = 0;
        it.single_count = 0;
        if (ompt::on()) [[unlikely]]
            run_league_team_observed(it, t->ompt_parallel, t->fn, th->gtid, t->argc, t->args);
        else
            invoke_microtask(t->fn, th->gtid, 0, t->argc, t->args);
    }
}

namespace {

// Whether a lingering member should try to retire at spin round k: a region elsewhere
// wants its worker (`on_demand`: it gives it), or its spin budget ran out (no budget with KMP_BLOCKTIME=infinite:
// then it yields its worker now and then, and retires only when the process exits).
bool time_to_retire(unsigned k, long budget, std::chrono::steady_clock::time_point begin,
                    bool on_demand) {
    if (on_demand && claims::workers_wanted()) return true;
    if ((k & 255) != 0) return false;
    // The process is exiting: its exit-time shutdown waits for this member's task, so a
    // long budget (KMP_BLOCKTIME=200ms, say) would delay the exit by that much.
    if (process_exiting()) return true;
    if (budget >= 0)
        return std::chrono::steady_clock::now() - begin > std::chrono::microseconds(budget);
    if ((k & 0xffff) == 0) yield_tied();
    return false;
}

// A member done with its share while the team's tasks still run (after `single nowait`,
// say) lends its worker to them, as a barrier wait does (task_hooks.cpp run_one): it
// parks until its worker finds no normal work, taking the team's tasks meanwhile,
// instead of spinning while they wait for its budget to end. False if it did not.
// Meanwhile it is not lingering on `worker` (`lingering`: whether it was): it runs a
// task, or the worker runs other contexts while it is parked, so it cannot give the
// worker back on demand until that task or context lets it run again. A region forked
// by such a task waited for it, spinning on the very worker it needed: with tasks that
// each run a host `target` region with a `parallel` inside, every worker spun so
// (libgomp.fortran/target7.f90 with a static array, tests/omp/target_regions_in_tasks.c).
bool lend_to_team_tasks(team* t, member_slot& s, unsigned worker, bool lingering) {
    if (t->tasks.busy.load(std::memory_order_relaxed) == 0 || !g_task_hooks.run_one) return false;
    if (lingering) claims::set_lingering(worker, false);
    const bool lent = g_task_hooks.run_one(&s.task);
    if (lingering) claims::set_lingering(worker, true);
    if (!lent) return false;
    if (g_task_hooks.wait_end) g_task_hooks.wait_end(&s.task);
    return true;
}

/// How a member waits for its team's next region, fixed by the team's level (read
/// before the join: the team is the master's again after it).
struct linger_policy {
    int level;
    bool on_demand;  // marked lingering: gives its worker to a region that wants one
    explicit linger_policy(int team_level) : level(team_level), on_demand(!hot_team_level(team_level)) {}
};

// Waits for a start word other than `seen` that names member i; false when the member
// is to leave instead (retired by the master, or it retired itself: time_to_retire).
// While it waits unreserved it is marked lingering on `worker` (claims.hpp) unless its
// team is hot (a hot team's members are its own, as libomp's: a region elsewhere grows
// the pool or runs smaller instead); on false the caller clears that after releasing
// the claim.
bool next_start(team* t, member_slot& s, int i, int worker, std::uint32_t served,
                std::uint64_t& seen, const linger_policy& linger) {
    const auto w = static_cast<unsigned>(worker);
    if (linger.on_demand) claims::set_lingering(w, true);
    // Unless an OpenMP setting fixed the wait or made the team hot (linger_budget_us),
    // linger as long as this worker's adaptive budget says (core/spin_policy.hpp):
    // through a 200 us serial gap a member that spins the full 100 us doubles the CPU
    // the gap costs.
    const long budget = linger_budget_us(linger.level);
    // More workers than CPUs: a member of the running region may need this CPU.
    const unsigned spins = spins_before_yield(ext::pool_oversubscribed());
    const auto begin = std::chrono::steady_clock::now();
    bool reserved_now = false;  // the CAS that would retire it found a reservation
    for (unsigned k = 1;; ++k) {
        const std::uint64_t v = t->start.load(std::memory_order_acquire);
        if (v != seen) {
            seen = v;
            if (std::uint32_t(i) < start_members(v)) {
                claims::set_lingering(w, false);
                ext::note_idle_wait(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin)
                        .count(),
                    false);
                return true;
            }
            // A poke or a region without this member: is it told to leave?
            if (s.reserved.load(std::memory_order_acquire) == reserve_retired) return false;
            continue;
        }
        if (lend_to_team_tasks(t, s, w, linger.on_demand && !reserved_now)) continue;
        pause_then_yield(k, spins);
        if (reserved_now || !time_to_retire(k, budget, begin, linger.on_demand)) continue;
        // Retire, unless the master reserved this member meanwhile (then its region's
        // start word is on the way).
        std::uint32_t expected = served;
        if (s.reserved.compare_exchange_strong(expected, reserve_retired,
                                               std::memory_order_acq_rel))
            return false;
        if (expected == reserve_retired) return false;  // dismissed at the same time
        reserved_now = true;
        // Not available any more: a region waiting for lingering workers (perhaps the
        // one this member's master runs after its own wait) must not wait for this one.
        claims::set_lingering(w, false);
    }
}

// With a tool, a member's implicit barrier at the region's end is a real one: the
// member reports its end only once every member arrived, running the team's tasks
// meanwhile, so a task it runs there is inside its barrier region, as on libomp (LLVM
// ompt/tasks/task_in_joinbarrier; before, it reported the barrier passed at once and
// then ran the tasks while lingering). Its end events still come before its join, so
// the master's parallel_end follows them (a tool may free the region's data there).
void observed_join_barrier(team* t, member_slot& s, implicit_task& it) {
    const bool events = ompt::on();
    if (events) ompt::sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, nullptr);
    arrive_at_observed_join(t);
    const int m = t->nthreads;
    std::atomic_ref(it.ompt_in_join).store(true, std::memory_order_release);
    wait_until([t, m] { return t->ompt_arrived.load(std::memory_order_seq_cst) == m; }, s.sleep, &it);
    std::atomic_ref(it.ompt_in_join).store(false, std::memory_order_release);
    if (!events || !ompt::on()) return;
    ompt::sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, nullptr);
    ompt::implicit_task_end(&it, m);
}

}  // namespace

void arrive_at_observed_join(team* t) {
    const int m = t->nthreads;
    // seq_cst RMW before wake()'s flag exchange: the waiter's re-check or the wake
    // sees it (sync/wait.hpp).
    if (t->ompt_arrived.fetch_add(1, std::memory_order_seq_cst) + 1 != m) return;
    for (int i = 1; i < m; ++i) wake(t->slots[i].sleep);
}

void run_member(team* t, int i, std::uint32_t epoch) {
    // A member task is tied to its worker (ext::submit_to), so `th` stays this
    // thread's record even across parking (wait.cpp).
    thread_state* th = this_thread();
    implicit_task* saved = th->current;
    const bool saved_in_member = th->in_member;
    th->in_member = true;
    member_slot& s = t->slots[i];
    const int worker = s.worker;
    // The fork publishes the start word before it submits this task; a later word needs
    // this member's join first, so the one seen names `epoch`.
    std::uint64_t seen = t->start.load(std::memory_order_acquire);
    while (start_epoch(seen) != epoch) {
        spin_pause();
        seen = t->start.load(std::memory_order_acquire);
    }
    for (;;) {
        // Written before the start word; the next region rewrites it only after this
        // member joined.
        const std::uint64_t target = t->start_join_target;
        implicit_task& it = s.task;
        setup_task(t, i, it, worker);
        // Relaxed: read on this thread, or by workers choosing one to send a task to,
        // which run it here only after this (task_runner.cpp member_began).
        s.begun.store(start_epoch(seen), std::memory_order_relaxed);
        th->current = &it;
        run_share(t, i, it, th);
        if (g_task_hooks.drain) g_task_hooks.drain(&it, true);
        // Without a tool the join is this member's arrival at the region's implicit
        // barrier: it does not wait there (the master does).
        if (t->ompt_join) [[unlikely]] observed_join_barrier(t, s, it);
        // Lingering, this context runs the team's tasks as the scheduler's loop does
        // (lend_to_team_tasks: execute and park read th->current), from the thread's own
        // initial task. Not from `saved`: that is whatever the loop left there when this
        // member task started (before tasking::park presented the initial task while
        // parked, a parked context's implicit task or stand-in, which may end and be
        // freed while this one lends; park wrote back into it when it resumed).
        th->current = &th->initial;
        const bool hot = t->hot;
        const linger_policy linger(t->level);
        const std::uint32_t served = start_epoch(seen);
        // Lingering from before the join on: once the master passed the join it may
        // fork a region that wants this worker, and finding it claimed by a member not
        // yet marked lingering, would take a smaller team instead of waiting for the
        // claim (a 6-thread region after a nest under OMP_THREAD_LIMIT=6 got 5).
        if (linger.on_demand) claims::set_lingering(static_cast<unsigned>(worker), true);
        if (t->joined.fetch_add(1, std::memory_order_seq_cst) + 1 == target)
            wake(t->slots[0].sleep);
        if (!hot || !next_start(t, s, i, worker, served, seen, linger)) break;
    }
    th->current = saved;
    th->in_member = saved_in_member;
    claims::release(static_cast<unsigned>(worker));
    // After the release: a region waiting for lingering workers stops waiting when none
    // lingers, and must find this worker free by then.
    claims::set_lingering(static_cast<unsigned>(worker), false);
    s.released.store(true, std::memory_order_release);
    t->live.fetch_sub(1, std::memory_order_release);
}

}  // namespace loom::omp
