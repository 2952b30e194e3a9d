// Parallel regions, the master's side: requests for the next region (num_threads,
// proc_bind, num_teams), team formation on claimed workers, start and join, serialized
// regions (the members' side is member.cpp). Protocol notes: team.hpp and docs/omp.md
// ("Fork and join"). The ABI entry points are kmpc/parallel.cpp and gomp/.
#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <mutex>
#include <vector>

#include "abi.hpp"
#include "out_of_memory.hpp"
#include "env/affinity.hpp"
#include "env/bind.hpp"
#include "parallel/claims.hpp"
#include "parallel/outside_masters.hpp"
#include "parallel/promised.hpp"
#include "parallel/fork.hpp"
#include "ompt/events.hpp"
#include "env/icv.hpp"
#include "parallel/lifecycle.hpp"
#include "loom/ext/scheduler.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "routines/error_directive.hpp"
#include "sync/wait.hpp"
#include "worksharing/cancel.hpp"

namespace loom::omp {

task_hooks g_task_hooks;

long current_spin_budget_us() noexcept { return spin_budget_us(); }

team::team(int cap)
    : capacity(cap),
      slots(new member_slot[static_cast<std::size_t>(cap)]),
      dispatch_count(globals().disp_num_buffers),
      dispatch(new dispatch_buffer[dispatch_count]) {}
team::~team() {
    delete[] dispatch;
    delete[] slots;
}

namespace {

// Never destroyed: pool threads still exit (and forget their teams) while the
// process runs its static destructors.
std::mutex g_owners_mutex;
std::vector<thread_state*>& g_owners = *new std::vector<thread_state*>;  // threads with cached teams

void note_owner(thread_state* th) {
    std::lock_guard lk(g_owners_mutex);
    if (std::find(g_owners.begin(), g_owners.end(), th) == g_owners.end()) g_owners.push_back(th);
}

void forget_owner(thread_state* th) {
    std::lock_guard lk(g_owners_mutex);
    std::erase(g_owners, th);
}

// Next epoch of `t` for a region or a poke: never 0 (the initial `reserved`) nor
// reserve_retired.
std::uint32_t next_epoch(team* t) {
    if (++t->epoch == reserve_retired || t->epoch == 0) t->epoch = 1;
    return t->epoch;
}

// Publishes a word with no members: lingering members look at their `reserved`.
void poke(team* t) {
    t->start.store(start_word(next_epoch(t), 0), std::memory_order_release);
}

void join(team* t, implicit_task* mt) {
    const std::uint64_t target = t->join_target;
    wait_until([t, target] { return t->joined.load(std::memory_order_seq_cst) == target; },
               t->slots[0].sleep, mt);
}

// Dismisses lingering members of a cached team and waits until none touches it.
void dismiss(team* t) {
    bool any = false;
    for (int i = 1; i < t->capacity; ++i) {
        member_slot& s = t->slots[i];
        if (!s.running) continue;
        std::uint32_t expected = s.last_reserved;
        s.reserved.compare_exchange_strong(expected, reserve_retired, std::memory_order_acq_rel);
        s.running = false;
        any = true;
    }
    if (any) poke(t);
    while (t->live.load(std::memory_order_acquire) != 0) spin_pause();
}

team* new_team(int cap) {
    return allocate_or_stop([cap] { return new team(cap); }, "a team", sizeof(team));
}

team* acquire_team(thread_state* th, int level, int want) {
    int cap = std::max(want, pool_size() + 1);
    if (level >= 0 && level < thread_state::hot_levels) {
        team*& h = th->hot[level];
        if (h && !h->busy && h->capacity >= want) return h;
        if (h && !h->busy) {
            dismiss(h);
            delete h;
            h = nullptr;
        }
        if (!h) {
            h = new_team(cap);
            h->hot = true;
            note_owner(th);
            return h;
        }
    }
    return new_team(cap);  // the cached one is in use (a parked region on this thread)
}

// Teams of a host league, as libomp 19 shapes them (__kmp_push_num_teams[_51]) with the
// pool standing for the available processors: num_teams(lb:ub) takes as many teams
// as the pool holds at the thread limit, within [lb, ub]; then each team's threads are
// cut so that all teams can have them at once. Teams are gangs on distinct workers, so
// that keeps every team the same size (LLVM teams/kmp_num_teams).
void shape_league(int lb, int ub, int limit, int nthreads_var, int& nteams, int& per_team) {
    const global_icvs& g = globals();
    const int pool = pool_size();
    if (limit <= 0) limit = g.teams_thread_limit;
    if (ub <= 0) nteams = g.num_teams > 0 ? g.num_teams : 1;
    else if (lb <= 0 || lb >= ub) nteams = ub;
    else nteams = std::clamp(pool / std::max(limit, 1), lb, ub);
    per_team = limit > 0 ? limit : std::max(1, pool / nteams);
    if (limit <= 0 && nthreads_var > 0) per_team = std::min(per_team, nthreads_var);
    if (per_team > 1 && nteams * per_team > pool) per_team = std::max(1, pool / nteams);
}

int prefer_for(int master_worker, int i, int nworkers) {
    if (nworkers <= 1) return 1;
    int base = master_worker > 0 ? master_worker : 0;
    return 1 + (base + i - 1) % (nworkers - 1);
}

// Retries `attempt` with the worker demand raised (claims.hpp) until it succeeds or
// `lingers` says no member could still give a worker back; true if it succeeded.
template <class Attempt, class Lingers>
bool retry_with_demand(Attempt attempt, Lingers lingers) {
    claims::want_workers(true);
    bool got = false;
    for (unsigned k = 0; !(got = attempt()) && lingers(); ++k) pause_then_yield(k, short_spins);
    claims::want_workers(false);
    return got;
}

// Claims worker `w` for a member that ran on it before, waiting for it when a lingering
// member of another team holds it (that member retires on the demand, or drops its flag
// when its own master reserved it): the member keeps its worker, so its thread's
// threadprivate data and affinity, instead of taking any free one.
bool reclaim_worker(unsigned w) {
    if (claims::try_claim(w)) return true;
    if (!claims::lingering(w)) return false;
    // The last try: the member clears its flag only after it released the claim.
    return retry_with_demand([w] { return claims::try_claim(w); },
                             [w] { return claims::lingering(w); }) ||
           claims::try_claim(w);
}

// Reserves slot i for region `epoch`: its lingering member, or a claimed worker for a
// new member task (started by start_new_members); false if no worker is free.
// `given`: a worker already claimed for this member (promised.hpp), or -1. `took_given`
// says whether the member got it (a lingering member keeps its own worker instead).
bool reserve_member(team* t, int i, int master_worker, int nworkers, std::uint32_t epoch,
                    int given = -1, bool* took_given = nullptr) {
    member_slot& s = t->slots[i];
    if (s.running) {
        std::uint32_t expected = s.last_reserved;
        if (s.reserved.compare_exchange_strong(expected, epoch, std::memory_order_acq_rel)) {
            s.last_reserved = epoch;
            return true;
        }
        s.running = false;  // it retired
        // It releases its worker right after retiring (nothing can block it there):
        // wait for that, so the team keeps its worker (threadprivate) and its size
        // even when the member's OS thread is preempted meanwhile.
        spin_until([&s] { return s.released.load(std::memory_order_acquire); });
    }
    int w = -1;
    if (given >= 0) {
        w = given;
        *took_given = true;
    } else if (s.worker > 0 && s.worker < nworkers && reclaim_worker(static_cast<unsigned>(s.worker)))
        w = s.worker;
    else
        w = claims::claim_any(static_cast<unsigned>(prefer_for(master_worker, i, nworkers)),
                              static_cast<unsigned>(nworkers));
    if (w < 0) return false;
    s.worker = w;
    s.reserved.store(epoch, std::memory_order_relaxed);
    s.last_reserved = epoch;
    return true;
}

// Too few free workers while members linger on theirs (members of other threads' teams,
// of this thread's teams at other levels, or this team's surplus): ask them to retire
// and take their workers as they come back. Without it, a nest of regions reshaped
// from one nest to the next finds its workers held by the last nest's lingering inner
// teams, and gets smaller teams for as long as those take to see their budget end (a
// loaded machine: milliseconds).
int reserve_from_lingering(team* t, int m, int limit, int w, int nworkers, std::uint32_t epoch) {
    const auto n = static_cast<unsigned>(nworkers);
    if (!claims::any_lingering(n)) return m;
    while (m < limit && retry_with_demand([&] { return reserve_member(t, m, w, nworkers, epoch); },
                                          [n] { return claims::any_lingering(n); }))
        ++m;
    return m;
}

// A top-level region grows the pool only when the initial thread (slot 0) enters it
// from its own code: a region entered from a loom task or a thread outside the pool
// shares the workers there are (DESIGN: OpenMP called from tasks never
// oversubscribes the cores).
bool initial_thread_outside_tasks(thread_state* th, implicit_task* parent) {
    return ext::current_worker() == 0 && parent == &th->initial && context_is_tied();
}

// A nested region that found too few free workers grows the pool by what it lacks
// and takes the new workers: the specification's thread-count algorithm gives a nested
// team its full size up to thread-limit-var, and teams are gangs, so the workers must
// exist (before, a 4 x 4 x 4 nest got whatever workers happened to be free: team sizes
// varied from run to run). Regions at level 0 (OpenMP called from loom tasks) never
// grow it: there, the workers are the cores, and sharing them is the point.
// Another region growing at the same moment may take a new worker first: then grow
// again, a bounded number of times (the pool stops at the thread limit anyway).
int reserve_grown(team* t, int m, int limit, int w, int& nworkers, std::uint32_t epoch) {
    for (int attempt = 0; m < limit && attempt < 4; ++attempt) {
        const int grown = grow_pool_by(limit - m);
        if (grown <= nworkers) break;  // refused, or at the thread limit
        nworkers = grown;
        while (m < limit && reserve_member(t, m, w, nworkers, epoch)) ++m;
    }
    return m;
}

// Members of a cached team beyond this region's size stop lingering: they hold their
// workers' claims while they linger, and a nested or concurrent region must find those
// workers free. They see it at the region's start word (not theirs: they look at
// `reserved`); wait_surplus then waits for their claims. The slot stays `running`, so a
// later region that wants it back waits for the release before claiming the same
// worker again (reserve_member).
bool retire_surplus(team* t, int m) {
    bool any = false;
    for (int i = m; i < t->capacity; ++i) {
        member_slot& s = t->slots[i];
        if (!s.running) continue;
        std::uint32_t expected = s.last_reserved;
        s.reserved.compare_exchange_strong(expected, reserve_retired, std::memory_order_acq_rel);
        any = true;
    }
    return any;
}

// The nested regions this one is about to open look for free workers at once (a member
// that yields its CPU while it lingers may take a while to see the retirement).
void wait_surplus(team* t, int m) {
    for (int i = m; i < t->capacity; ++i) {
        member_slot& s = t->slots[i];
        if (!s.running) continue;
        spin_until([&s] { return s.released.load(std::memory_order_acquire); }, short_spins);
        s.running = false;
    }
}

void member_entry(team* t, int i, std::uint32_t epoch);

// Members reserved on a claimed worker (not lingering) get a new task, after the start
// word: it finds its region published at once.
void start_new_members(team* t, int m, std::uint32_t epoch) {
    for (int i = 1; i < m; ++i) {
        member_slot& s = t->slots[i];
        if (s.running) continue;
        s.running = true;
        s.released.store(false, std::memory_order_relaxed);
        t->live.fetch_add(1, std::memory_order_relaxed);
        ext::task* task = ext::make_task([t, i, epoch] { member_entry(t, i, epoch); });
        task->home = s.worker;
        ext::submit_to(task, static_cast<unsigned>(s.worker));
    }
}

void member_entry(team* t, int i, std::uint32_t epoch) {
    run_member(t, i, epoch);
}

// Stores `v` only if it differs: an unchanged field keeps its cache line shared with
// the members that read it, instead of every fork taking the line back from them.
template <class T>
void set_if_changed(T& field, const T& v) {
    if (!(field == v)) field = v;
}
template <class T>
void set_if_changed(std::atomic<T>& field, T v) {
    if (field.load(std::memory_order_relaxed) != v) field.store(v, std::memory_order_relaxed);
}

void reset_team_for_region(team* t, int n) {
    set_if_changed(t->nthreads, n);
    t->join_target += static_cast<std::uint64_t>(n - 1);
    set_if_changed(t->bar_count, n);  // the last arriver of a barrier re-arms it
    set_if_changed(t->single_count, std::uint32_t{0});
    set_if_changed(t->red_count, 0);
    if (t->cancel_request.load(std::memory_order_relaxed) == cancel_parallel)
        g_cancelled_regions.fetch_sub(1, std::memory_order_relaxed);
    set_if_changed(t->cancel_request, 0);
    set_if_changed(t->copyprivate_data, static_cast<void*>(nullptr));
    reset_dispatch(t->dispatch, t->dispatch_count);
}

// OMPT flags of the regions loom forks: the runtime calls every member's outlined body.
constexpr int ompt_flags = ompt_parallel_invoker_runtime | ompt_parallel_team;

constexpr int ompt_league_flags = ompt_parallel_invoker_runtime | ompt_parallel_league;

// `requested`: the region's OMPT requested_team_size.
void run_serialized(thread_state* th, implicit_task* parent, kmpc_micro fn, int argc,
                    void** args, int league_teams, const task_icvs* icvs = nullptr, int requested = 1) {
    implicit_task child;
    child.parent = parent;
    if (ompt::on()) [[unlikely]] child.ompt_encountering = ompt::encountering_task(parent);
    child.level = league_teams ? parent->level : parent->level + 1;
    child.active_level = parent->active_level;
    child.in_league = parent->in_league || league_teams > 0;
    child.team_num = parent->team_num;
    child.num_teams = parent->num_teams;
    child.holds_claim = parent->holds_claim;
    child.worker = parent->worker;
    if (icvs)
        child.icv = *icvs;
    else if (league_teams)
        child.icv = parent->icv;
    else
        inherit_icvs(parent->icv, child.icv);
    // OMPT: a league is one region of league_teams teams, a plain region one of the
    // threads it asked for.
    ompt_data_t league{};
    ompt_data_t* region = league_teams ? &league : &child.ompt_parallel;
    const int flags = league_teams ? ompt_league_flags : ompt_flags;
    const void* ra = ompt::on() ? ompt::parallel_begin(parent, region, league_teams ? league_teams : requested, flags) : nullptr;
    th->current = &child;
    if (league_teams) {
        for (int j = 0; j < league_teams; ++j) {
            child.team_num = j;
            child.num_teams = league_teams;
            child.ws_count = 0;
            child.single_count = 0;
            if (ompt::on()) [[unlikely]]
                run_league_team_observed(child, league, fn, th->gtid, argc, args);
            else
                invoke_microtask(fn, th->gtid, 0, argc, args);
        }
    } else {
        if (ompt::on()) ompt::implicit_task_begin(&child, &child.ompt_parallel, 1);
        begin_implicit_task(&child);
        traced_slice slice(t_fork_psource);
        invoke_microtask(fn, th->gtid, 0, argc, args, ompt::on() ? &child.ompt_frame : nullptr);
    }
    if (g_task_hooks.drain) g_task_hooks.drain(&child, true);
    if (ompt::on() && !league_teams) ompt::implicit_task_end(&child, 1);
    th->current = parent;
    if (ompt::on()) ompt::parallel_end(parent, region, flags, ra);
}

// What __kmpc_push_num_threads* asked of the next region; the fork consumes it.
struct pushed_request {
    int nthreads = 0;
    const std::vector<int>* list = nullptr;
    int severity = 0;
    const char* message = nullptr;
    ident_t* loc = nullptr;
    int bind = -1;  // __kmpc_push_proc_bind
    bool bind_sets_icv = false;
};

pushed_request take_pushed(thread_state* th) {
    pushed_request p{th->pushed_nthreads, th->pushed_list, th->pushed_severity,
                     th->pushed_message, th->pushed_loc, th->pushed_bind, th->pushed_bind_sets_icv};
    th->pushed_nthreads = 0;
    th->pushed_list = nullptr;
    th->pushed_severity = 0;
    th->pushed_message = nullptr;
    th->pushed_loc = nullptr;
    th->pushed_bind = -1;
    th->pushed_bind_sets_icv = false;
    return p;
}

// A strict num_threads clause that gets fewer threads reports it the way the error
// directive does, with the clause's severity (1 warning, 2 fatal) and message, else
// libomp 19's text (OpenMP 6.0, num_threads clause).
void check_strict(const pushed_request& p, int got) {
    if (p.severity == 0 || got >= p.nthreads) return;
    report_error_directive_kmpc(p.loc ? p.loc->psource : nullptr, p.severity,
                                p.message ? p.message
                                          : "Cannot form team with number of threads specified by "
                                            "strict num_threads clause.");
}

// ICVs of the implicit tasks of a region: inherited, then a num_threads list's entries
// for the nested levels, a gcc proc_bind clause (push_proc_bind) and a target task's
// thread limit.
task_icvs child_icvs_of(const task_icvs& parent, const pushed_request& p, int thread_limit) {
    task_icvs c;
    inherit_icvs(parent, c);
    const bool list_names_level = c.bind_pos != parent.bind_pos;
    if (p.bind_sets_icv && p.bind > proc_bind_false && parent.bind != proc_bind_false &&
        !list_names_level)
        c.bind = static_cast<signed char>(p.bind);
    if (p.list) {
        c.nthreads_list = p.list;
        c.nthreads_pos = 1;
        c.nthreads = (*p.list)[1];
        c.nthreads_from_list = true;
    }
    if (thread_limit > 0) c.thread_limit = thread_limit;
    return c;
}

// The contention group `it` belongs to: its root is a thread's initial task, the initial
// task of a target region run on the host, or a league's team.
implicit_task* cg_root(implicit_task* it) noexcept {
    while (it->parent && !it->target_root && !(it->in_league && !it->parent->in_league))
        it = it->parent;
    return it;
}

// The threads a region holds against its contention group's thread-limit-var, from its
// fork to its join. OpenMP 5.2, 10.1.1 (number of threads for a parallel region):
// ThreadsAvailable = thread-limit-var - ThreadsBusy + 1, ThreadsBusy counting every
// thread of the group that runs a team's implicit task (the group's root counts the ones
// beyond their encountering threads: cg_busy). Without it each nested team was cut to
// thread-limit-var alone, and a 5 x 5 x 2 nest under OMP_THREAD_LIMIT=6 ran 50 threads.
class cg_threads {
public:
    cg_threads() = default;
    cg_threads(const cg_threads&) = delete;
    cg_threads& operator=(const cg_threads&) = delete;
    ~cg_threads() { give_back(held_); }

    // A region of `n` (> 1) threads under limit `tl` (> 0): the team size it may have
    // (1: no thread is available, the region is serialized).
    int take(implicit_task* parent, int n, int tl) noexcept {
        int* word = &cg_root(parent)->cg_busy;
        std::atomic_ref<int> busy(*word);
        int cur = busy.load(std::memory_order_relaxed);
        int got = 0;
        do {
            got = std::min(n, tl - cur);
            if (got <= 1) return 1;
        } while (!busy.compare_exchange_weak(cur, cur + got - 1, std::memory_order_acq_rel,
                                             std::memory_order_relaxed));
        busy_ = word;
        held_ = got - 1;
        return got;
    }
    // The team formed with `m` members: the threads it could not get go back at once.
    void keep(int m) noexcept { give_back(held_ - (m - 1)); }

private:
    void give_back(int k) noexcept {
        if (k <= 0 || !busy_) return;
        std::atomic_ref<int>(*busy_).fetch_sub(k, std::memory_order_acq_rel);
        held_ -= k;
    }
    int* busy_ = nullptr;
    int held_ = 0;
};

}  // namespace

bool entered_from_loom_task(thread_state* th, implicit_task* parent) {
    return parent->level == 0 && !parent->in_league && !parent->target_root &&
           ext::current_worker() >= 0 && !initial_thread_outside_tasks(th, parent);
}

void fork_region(kmpc_micro fn, int argc, void** args, bool parallel_if, int league_teams,
                 int league_limit) {
    struct in_flight {
        in_flight() { enter_region(); }
        ~in_flight() { leave_region(); }
    } guard;
    thread_state* th = this_thread();
    implicit_task* parent = th->current;
    ensure_pool();
    const int w = ext::current_worker();
    const outside_master outside(th, w, parent);
    const pushed_request push = take_pushed(th);
    const int req = push.nthreads;
    const int tl = thread_limit_of(th, parent);
    task_icvs child;
    cg_threads cg;  // declared before the team: given back after the join

    int n;
    int requested;  // OMPT requested_team_size: before the thread limit (as libomp)
    if (league_teams > 0) {
        // Members run the teams in turn; each needs room for its team's threads.
        const int per_team = std::max(1, league_limit);
        n = std::min(league_teams, std::max(1, pool_size() / per_team));
        child = parent->icv;
        child.nthreads = per_team;
        child.nthreads_from_list = false;
        child.thread_limit = per_team;
        requested = n;
    } else {
        n = req > 0 ? req : parent->icv.nthreads;
        if (n <= 0) n = default_nthreads_var();
        // As libomp: the clause or nthreads-var, also for a region that max-active-levels
        // or a serial library serializes; an if(false) region asks for one thread.
        requested = parallel_if ? n : 1;
        if (!parallel_if || parent->active_level >= parent->icv.max_active_levels) n = 1;
        if (globals().library == 0) n = 1;
        if (tl > 0 && n > 1) n = cg.take(parent, n, tl);
        child = child_icvs_of(parent->icv, push, tl);
    }
    int nworkers = pool_size();
    // A top-level region may grow the pool: to its own size, and when a list sizes its
    // nested levels, to what the whole nest can ask for (icv.cpp, nest_demand).
    if (parent->level == 0 && !parent->in_league && initial_thread_outside_tasks(th, parent)) {
        const int want = league_teams > 0 || n <= 1 ? n : nest_demand(n, child, tl);
        if (want > nworkers) nworkers = try_grow_pool(want);
    }
    if (n <= 1) {
        release_promised(th);  // workers omp_get_max_threads() claimed for a larger team
        end_task_region(th);
        if (league_teams == 0) check_strict(push, 1);
        run_serialized(th, parent, fn, argc, args, league_teams, &child, requested);
        return;
    }

    bool master_claimed = false;
    if (w >= 0 && !parent->holds_claim) master_claimed = claims::try_claim(static_cast<unsigned>(w));

    // A region nested in an active one may grow the pool (below): its team may be
    // larger than the pool is now. So may one in a target region run on the host: that
    // is OpenMP code too, though not in a parallel region any more.
    const bool nested = (parent->active_level > 0 || parent->target_root) && league_teams == 0;
    team* t = acquire_team(th, parent->level, nested ? n : std::min(n, nworkers + 1));
    t->busy = true;
    const std::uint32_t epoch = next_epoch(t);
    int m = 1;
    int limit = std::min(n, t->capacity);
    // A thread outside the pool runs on a CPU of its own (outside_masters.hpp); its
    // team's own lingering members count as its to keep or give back. Not once it
    // asked omp_get_max_threads(): code that sized its regions by the answer may need
    // every thread of it (OpenMP OpenBLAS's threads wait for one another); nor for a
    // strict num_threads clause, where fewer threads are an error.
    bool bounded = false;
    if (outside.counted() && league_teams == 0 && !th->sized_by_max_threads &&
        push.severity == 0) {
        const int cap = 1 + outside.members_allowed(nworkers, held_workers(t));
        bounded = cap < limit;
        limit = std::min(limit, cap);
    }
    // OpenMP called from a loom task (level 0, not the initial thread's own code): the
    // workers omp_get_max_threads() promised first (promised.hpp), then only members
    // that linger on theirs; no worker busy with another task, which may spin for what
    // this region holds (OpenMP OpenBLAS from several tasks) while idle workers sleep.
    const bool from_task = entered_from_loom_task(th, parent);
    // The turn of the one multi-thread region from tasks ends with this region.
    struct turn_guard {
        thread_state* th;
        ~turn_guard() {
            if (th) end_task_region(th);
        }
    } turn{from_task ? th : nullptr};
    if (from_task) {
        // A region the task entered without asking first: the same promise, made now.
        if (th->promised_workers.empty()) promise_idle_workers(th, limit - 1);
        std::size_t used = 0;
        while (m < limit && used < th->promised_workers.size()) {
            bool took = false;
            if (!reserve_member(t, m, w, nworkers, epoch, th->promised_workers[used], &took)) break;
            if (took) ++used;
            ++m;
        }
        release_promised(th, used);
    } else {
        while (m < limit && reserve_member(t, m, w, nworkers, epoch)) ++m;
        if (m < limit) m = reserve_from_lingering(t, m, limit, w, nworkers, epoch);
    }
    if (m < limit && nested) m = reserve_grown(t, m, limit, w, nworkers, epoch);
    if (m == 1 && league_teams == 0) {
        // The members it may not have stop lingering on the CPUs the masters need.
        if (bounded && retire_surplus(t, 1)) poke(t);
        t->busy = false;
        if (!t->hot) delete t;
        if (master_claimed) claims::release(static_cast<unsigned>(w));
        check_strict(push, 1);
        run_serialized(th, parent, fn, argc, args, 0, &child, requested);
        return;
    }
    if (league_teams == 0) check_strict(push, m);
    cg.keep(m);

    // Only when another region could want those workers: one nested in this region (a
    // host teams league always nests), or one run by another thread now; or when other
    // outside masters need their CPUs (`bounded`). Otherwise they stay for a later,
    // larger region (alternating team sizes cost ~10 us per region instead of a
    // resubmission each).
    const bool surplus = (league_teams > 0 || child.max_active_levels > 1 ||
                          regions_in_flight() > 1 || bounded) &&
                         retire_surplus(t, m);

    set_if_changed(t->fn, fn);
    if (ext::tracing()) t->trace_name = t_fork_psource;
    set_if_changed(t->argc, argc);
    set_if_changed(t->args, args);
    set_if_changed(t->parent, parent);
    set_if_changed(t->level, parent->level + 1);
    set_if_changed(t->active_level, parent->active_level + 1);
    set_if_changed(t->league, league_teams > 0);
    set_if_changed(t->proc_bind, push.bind);
    if (t->league) {
        t->league_thread_limit = league_teams;  // number of teams; members loop over them
    }
    set_if_changed(t->child_icvs, child);
    // Before the start word: members report their implicit tasks with this region's data.
    const void* ompt_ra = nullptr;
    if (ompt::on()) [[unlikely]] {
        t->ompt_encountering = ompt::encountering_task(parent);
        set_if_changed(t->ompt_join, !t->league);
        t->ompt_arrived.store(0, std::memory_order_relaxed);
        // A league run by several members is one teams region, as when its creator
        // runs it alone (run_serialized); each member reports the teams it runs.
        ompt_ra = t->league ? ompt::parallel_begin(parent, &t->ompt_parallel, league_teams, ompt_league_flags)
                            : ompt::parallel_begin(parent, &t->ompt_parallel, requested, ompt_flags);
    } else if (t->ompt_join) [[unlikely]] {
        t->ompt_join = false;  // the tool was finalised: members join without meeting
    }
    reset_team_for_region(t, m);
    set_if_changed(t->slots[0].worker, w);
    t->start_join_target = t->join_target;
    t->region_epoch.store(epoch, std::memory_order_relaxed);  // published by the start word
    t->start.store(start_word(epoch, static_cast<std::uint32_t>(m)), std::memory_order_release);
    start_new_members(t, m, epoch);
    if (surplus) wait_surplus(t, m);

    implicit_task& mt = t->slots[0].task;
    setup_task(t, 0, mt, w);
    t->slots[0].begun.store(epoch, std::memory_order_relaxed);
    mt.holds_claim = master_claimed || parent->holds_claim;
    th->current = &mt;
    run_share(t, 0, mt, th);
    if (g_task_hooks.drain) g_task_hooks.drain(&mt, true);
    if (t->ompt_join) [[unlikely]] {
        if (ompt::on()) ompt::sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, ompt_ra);
        arrive_at_observed_join(t);
    }
    join(t, &mt);
    if (t->ompt_join && ompt::on()) [[unlikely]] {
        ompt::sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, ompt_ra);
        ompt::implicit_task_end(&mt, m);
    }
    th->current = parent;
    if (ompt::on()) ompt::parallel_end(parent, &t->ompt_parallel, t->league ? ompt_league_flags : ompt_flags, ompt_ra);
    if (parent->level == 0) end_outer_region();

    if (master_claimed) claims::release(static_cast<unsigned>(w));
    if (t->hot) {
        t->busy = false;
    } else {
        while (t->live.load(std::memory_order_acquire) != 0) spin_pause();
        delete t;
    }
}

namespace {
// Deletes th's idle cached teams; true if it has none left.
bool dismiss_idle_teams(thread_state* th) {
    bool none_left = true;
    for (team*& h : th->hot) {
        if (!h) continue;
        if (h->busy) {
            none_left = false;
            continue;
        }
        dismiss(h);
        delete h;
        h = nullptr;
    }
    return none_left;
}
}  // namespace

void dismiss_hot_teams(thread_state* th) {
    // Out of the owners first: once forget_owner returns, no pause (which dismisses
    // the teams of every owner, below) can be at this thread's teams, nor reach this
    // record after the thread deleted it.
    forget_owner(th);
    dismiss_idle_teams(th);
}

void dismiss_all_hot_teams() {
    // Under the lock for the whole walk: an owner that exits meanwhile waits in
    // forget_owner and then finds its teams gone. Before, the walk ran on a copy of the
    // list, so an exiting thread and the pause both deleted the same team (a double
    // free in omp_pause_resource_all while other threads ended, tests/omp/
    // pause_under_load about 1 run in 20 beside a CPU hog), or the pause read the
    // record the thread had deleted.
    std::lock_guard lk(g_owners_mutex);
    std::erase_if(g_owners, [](thread_state* th) { return dismiss_idle_teams(th); });
}

void forget_hot_teams_after_fork() noexcept {
    new (&g_owners_mutex) std::mutex;
    g_owners.clear();
}

void fork_league(kmpc_micro fn, int argc, void** args) {
    thread_state* th = this_thread();
    ensure_pool();
    int nteams = 0, per_team = 0;
    shape_league(th->pushed_teams_lb, th->pushed_teams, th->pushed_teams_threads,
                 th->current->icv.nthreads, nteams, per_team);
    th->pushed_teams = 0;
    th->pushed_teams_lb = 0;
    th->pushed_teams_threads = 0;
    fork_region(fn, argc, args, true, nteams, per_team);
}

void push_num_teams(int lb, int ub, int thread_limit) {
    thread_state* th = this_thread();
    th->pushed_teams = ub > 0 ? ub : lb;
    th->pushed_teams_lb = lb;
    th->pushed_teams_threads = thread_limit;
}

void push_num_threads(int n) {
    thread_state* th = this_thread();
    th->pushed_nthreads = n;
    th->pushed_list = nullptr;
}

void push_num_threads_list(unsigned length, const int* list) {
    if (length == 0 || !list) return;
    thread_state* th = this_thread();
    th->pushed_nthreads = list[0];
    th->pushed_list = length > 1 ? intern_nthreads_list(list, length) : nullptr;
}

void push_strict_num_threads(ident_t* loc, int severity, const char* message) {
    thread_state* th = this_thread();
    th->pushed_severity = severity == error_severity_fatal ? error_severity_fatal
                                                           : error_severity_warning;
    th->pushed_message = message;
    th->pushed_loc = loc;
}

void push_proc_bind(int proc_bind, bool sets_bind_var) {
    thread_state* th = this_thread();
    th->pushed_bind = proc_bind;
    th->pushed_bind_sets_icv = sets_bind_var;
}

void begin_serialized_region() {
    thread_state* th = this_thread();
    implicit_task* parent = th->current;
    take_pushed(th);
    auto* child = new implicit_task;
    child->parent = parent;
    if (ompt::on()) [[unlikely]] child->ompt_encountering = ompt::encountering_task(parent);
    child->level = parent->level + 1;
    child->active_level = parent->active_level;
    child->in_league = parent->in_league;
    child->team_num = parent->team_num;
    child->num_teams = parent->num_teams;
    child->holds_claim = parent->holds_claim;
    child->worker = parent->worker;
    inherit_icvs(parent->icv, child->icv);
    if (ompt::on()) ompt::parallel_begin(parent, &child->ompt_parallel, 1, ompt_flags);
    th->current = child;
    if (ompt::on()) ompt::implicit_task_begin(child, &child->ompt_parallel, 1);
}

void end_serialized_region() {
    thread_state* th = this_thread();
    implicit_task* child = th->current;
    if (child == &th->initial || child->tm != nullptr || child->parent == nullptr) return;
    if (g_task_hooks.drain) g_task_hooks.drain(child, true);
    if (ompt::on()) ompt::implicit_task_end(child, 1);
    th->current = child->parent;
    if (ompt::on()) ompt::parallel_end(child->parent, &child->ompt_parallel, ompt_flags, nullptr);
    delete child;
}

}  // namespace loom::omp
