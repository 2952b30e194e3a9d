// Place assignment by proc-bind policy, thread binding and the omp_*place* routines.
// Assignments are computed from the chain of parent tasks when asked, so implicit
// tasks carry no place fields: a task at level L costs L steps.
#include "env/bind.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "abi.hpp"
#include "env/env.hpp"
#include "env/env_text.hpp"
#include "env/icv.hpp"
#include "parallel/lifecycle.hpp"
#include "loom/ext/scheduler.hpp"
#include "env/places.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {

// Places the user asked for (empty: none, threads are not bound by OpenMP).
const std::vector<std::vector<int>>& user_places() { return globals().places; }

// KMP_TEAMS_PROC_BIND: how the initial threads of a host teams league are spread
// (libomp's default: spread).
int teams_policy() {
    static const int policy = [] {
        const char* v = env_value("KMP_TEAMS_PROC_BIND");
        if (!v) return proc_bind_spread;
        std::string s = v;
        if (s == "spread") return proc_bind_spread;
        if (s == "close") return proc_bind_close;
        if (s == "primary" || s == "master") return proc_bind_master;
        if (s == "false") return proc_bind_false;
        warn("KMP_TEAMS_PROC_BIND='%s' is not spread, close, primary or false; using spread "
             "instead", v);
        return proc_bind_spread;
    }();
    return policy;
}

bool set_mask(const std::vector<int>& cpus) { return set_thread_mask(cpus); }

// The place whose processors are exactly the thread's mask, or -1.
int place_by_mask() {
    const auto& ps = place_list();
    if (ps.size() == 1) return 0;
    std::vector<int> mine = thread_cpus();
    for (std::size_t i = 0; i < ps.size(); ++i) {
        std::vector<int> p = ps[i];
        std::sort(p.begin(), p.end());
        if (p == mine) return static_cast<int>(i);
    }
    return -1;
}

// The place this thread was last bound to by bind_for_task (-1: none or unknown).
thread_local int t_bound_place = -1;

// A fork child starts with the forking thread's mask. One that OpenMP bound to a place
// gets the process's mask back (libomp's fork handler does the same), so that the
// child, the programs it runs and its own OpenMP regions see every processor.
void unbind_in_fork_child() {
    if (t_bound_place >= 0) set_mask(available_cpus());
    t_bound_place = -1;
}
[[maybe_unused]] const bool g_fork_handler = pthread_atfork(nullptr, nullptr, unbind_in_fork_child) == 0;

bool bind_to(int place) {
    if (place < 0 || place == t_bound_place) return true;
    if (!set_mask(place_list()[static_cast<std::size_t>(place)])) return false;
    t_bound_place = place;
    return true;
}

// The place holding the processors the scheduler pinned worker `w` to (-1: not a
// worker or not pinned).
int place_of_worker(int w) {
    if (w < 0) return -1;
    std::vector<unsigned> cpus = ext::worker_place(static_cast<unsigned>(w));
    if (cpus.empty()) return -1;
    const auto& ps = place_list();
    for (std::size_t i = 0; i < ps.size(); ++i)
        if (std::find(ps[i].begin(), ps[i].end(), static_cast<int>(cpus[0])) != ps[i].end())
            return static_cast<int>(i);
    return -1;
}

// An initial task (all places) of a thread that OpenMP binds (places set, bind-var not
// false): a pool worker is at the place of its worker (the main thread at that of
// worker 0), any other thread at the first place, bound there the first time it asks,
// as libomp binds its initial thread at start-up (the pool starts first: it sizes
// itself from the caller's mask). `worker` is the thread's worker, given by the
// caller when `own` is false. Without binding the place is where the thread's mask
// says, known only on the thread itself; asked from another thread it is -1.
place_assignment initial_assignment(implicit_task* it, bool own, int worker) {
    const int n = static_cast<int>(place_list().size());
    if (user_places().empty() || it->icv.bind == proc_bind_false)
        return {own ? place_by_mask() : -1, 0, n};
    if (own) {
        ensure_pool();
        worker = ext::current_worker();
    }
    int place = std::max(place_of_worker(worker), 0);
    if (own) bind_to(place);
    return {place, 0, n};
}

// Threads 0..t-1 over p places in runs of consecutive threads, the first t % p places
// taking one thread more (t > p): the place index of thread i's run.
int run_holding(int t, int p, int i) {
    const int s = t / p, rem = t % p;
    int k = 0, seen = 0;
    while (seen + s + (k < rem ? 1 : 0) <= i) seen += s + (k++ < rem ? 1 : 0);
    return k;
}

// Team member `i` of `t` threads under `policy`, from the parent's assignment.
place_assignment assign(const place_assignment& parent, int policy, int t, int i) {
    const int n = static_cast<int>(place_list().size());
    const int p = parent.count;
    const int pos = parent.place < 0 ? 0 : ((parent.place - parent.first) % n + n) % n;
    auto place_at = [&](int k) { return (parent.first + (pos + k) % p) % n; };
    place_assignment a = parent;
    if (policy == proc_bind_master || p <= 0) return a;
    if (policy == proc_bind_close) {
        a.place = place_at(t <= p ? i : run_holding(t, p, i));
        return a;
    }
    // spread (and true): T <= P splits the partition into T runs of consecutive
    // places, the first starting at the parent's place; T > P gives each place a
    // run of consecutive threads and every thread a partition of its one place.
    if (t <= p) {
        int s = p / t, rem = p % t, start = 0;
        for (int k = 0; k < i; ++k) start += s + (k < rem ? 1 : 0);
        a.first = place_at(start);
        a.count = s + (i < rem ? 1 : 0);
        a.place = a.first;
    } else {
        a.place = place_at(run_holding(t, p, i));
        a.first = a.place;
        a.count = 1;
    }
    return a;
}

// The policy and shape of the team `it` belongs to; false when OpenMP does not bind
// it (no user places, a team of one encountered by a serialized region).
bool team_shape(implicit_task* it, int& policy, int& t, int& i) {
    implicit_task* parent = it->parent;
    if (parent && it->level == parent->level) {  // an initial thread of a host teams league
        policy = teams_policy();
        t = it->num_teams;
        i = it->team_num;
    } else {
        policy = parent ? parent->icv.bind : proc_bind_false;
        // A proc_bind clause overrides bind-var, except that bind-var false keeps the
        // region unbound (libomp does the same: __kmp_fork_call).
        if (policy != proc_bind_false && it->tm && it->tm->proc_bind > proc_bind_false)
            policy = it->tm->proc_bind;
        t = it->nthreads;
        i = it->tid;
    }
    return !user_places().empty() && policy != proc_bind_false;
}

}  // namespace

const std::vector<std::vector<int>>& place_list() {
    static const std::vector<std::vector<int>>* p = [] {
        auto* v = new std::vector<std::vector<int>>(globals().places);
        if (v->empty()) v->push_back(available_cpus());
        return v;
    }();
    return *p;
}

namespace {

// `own`: `it` runs on the calling thread, so a place read from the mask is its own.
place_assignment assignment_of(implicit_task* it, bool own) {
    if (!it->parent) return initial_assignment(it, own, -1);
    int policy, t, i;
    implicit_task* parent = it->parent;
    // A root's thread is the one that encountered the region: member 0's worker.
    place_assignment pa =
        parent->parent ? assignment_of(parent, false)
                       : initial_assignment(parent, parent == &this_thread()->initial,
                                            it->tm ? it->tm->slots[0].worker : -1);
    if (!team_shape(it, policy, t, i)) {
        pa.place = own ? place_by_mask() : -1;
        return pa;
    }
    return assign(pa, policy, t, i);
}

}  // namespace

place_assignment assignment_of(implicit_task* it) { return assignment_of(it, it == current_task()); }

void bind_for_task(implicit_task* it) {
    int policy, t, i;
    if (!it->parent || !team_shape(it, policy, t, i)) return;
    if (!it->tm && it->level != it->parent->level) return;  // serialized: stays put
    bind_to(assignment_of(it).place);
}

int scheduler_pinning() {
    if (env_value("LOOM_PIN")) return -1;  // the user's word
    return globals().initial.bind != proc_bind_false || env_value("GOMP_CPU_AFFINITY") ? 1 : -1;
}

void end_outer_region() {
    const kmp_affinity_settings& ka = kmp_affinity();
    if (!ka.reset || ka.initial_mask.empty()) return;
    if (set_mask(ka.initial_mask)) t_bound_place = -1;
}

}  // namespace loom::omp

using namespace loom::omp;

LOOM_OMP_API int omp_get_num_places() { return static_cast<int>(place_list().size()); }

LOOM_OMP_API int omp_get_place_num_procs(int place) {
    if (place < 0 || place >= omp_get_num_places()) return 0;
    return static_cast<int>(place_list()[static_cast<std::size_t>(place)].size());
}

LOOM_OMP_API void omp_get_place_proc_ids(int place, int* ids) {
    if (!ids || place < 0 || place >= omp_get_num_places()) return;
    for (int c : place_list()[static_cast<std::size_t>(place)]) *ids++ = c;
}

LOOM_OMP_API int omp_get_place_num() { return assignment_of(current_task()).place; }

LOOM_OMP_API int omp_get_partition_num_places() { return assignment_of(current_task()).count; }

LOOM_OMP_API void omp_get_partition_place_nums(int* nums) {
    if (!nums) return;
    place_assignment a = assignment_of(current_task());
    const int n = omp_get_num_places();
    for (int k = 0; k < a.count; ++k) nums[k] = (a.first + k) % n;
}
