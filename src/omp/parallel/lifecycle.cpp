// Pool life cycle: lazy start, growth, omp_pause_resource and fork().
//
// fork(): the child has only the forking thread. Our pthread_atfork child handler
// forgets every claim, cached team and thread record but the caller's, so the child's
// first region starts from scratch. The scheduler must itself report running() ==
// false in the child (its workers are gone); see docs/omp.md, "Process life".
#include "parallel/lifecycle.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "env/bind.hpp"
#include "parallel/claims.hpp"
#include "tasking/held_tasks.hpp"
#include "env/env.hpp"
#include "env/env_text.hpp"
#include "env/icv.hpp"
#include "loom/ext/scheduler.hpp"
#include "env/places.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"
#include "routines/foreign_runtime.hpp"

namespace loom::omp {

void display_env(bool verbose);
void display_settings_if_asked();
void forget_hot_teams_after_fork() noexcept;
int within_thread_limit(int n);

namespace {

std::mutex g_life_mutex;
std::atomic<int> g_pool_size{0};
// The pool's size when it started (default_nthreads_var); written with g_pool_size at
// every start, never by a growth.
std::atomic<int> g_start_size{0};
// Regions being forked or run (fork_region), and a pool rebuild / pause in progress.
// A region entering while g_quiet is set steps back and waits on g_life_mutex; a
// rebuild goes ahead only if no other region is in flight (Dekker pair, seq_cst).
std::atomic<int> g_in_flight{0};
std::atomic<bool> g_quiet{false};

// Under g_life_mutex: stops new regions; true if only `own` regions are in flight
// (then the caller rebuilds and calls unquiesce), else undoes it and returns false.
bool quiesce(int own) {
    g_quiet.store(true, std::memory_order_seq_cst);
    if (g_in_flight.load(std::memory_order_seq_cst) == own) return true;
    g_quiet.store(false, std::memory_order_seq_cst);
    return false;
}
void unquiesce() { g_quiet.store(false, std::memory_order_seq_cst); }
std::once_flag g_once;
std::atomic<bool> g_exiting{false};

// libloom-omp depends on libloom, so the loader runs this library's destructors before
// libloom's exit hook shuts the scheduler down (which waits for every task).
// exit() called inside a region (g_in_flight counts regions not yet left; exit does not
// unwind): the members wait for a master that is gone, so draining the scheduler would
// never end. libomp, too, leaves such threads to the process's end.
void note_process_exiting() {
    g_exiting.store(true, std::memory_order_relaxed);
    if (g_in_flight.load(std::memory_order_seq_cst) > 0) ext::abandon_at_exit();
}
// Run first by the scheduler's exit drain (ext::add_exit_hook, before it waits for the
// lingering members' tasks); the destructor covers an exit that reaches libloom's own
// exit hook without it.
struct exit_watch {
    ~exit_watch() { note_process_exiting(); }
} g_exit_watch;

ext::pool_options options(unsigned n) {
    ext::pool_options o;
    const global_icvs& g = globals();
    // The scheduler reads OMP_NUM_THREADS itself; when it is malformed we already
    // warned, so size the pool explicitly and keep it to one warning.
    if (n == 0 && g.nthreads_malformed && !env_value("LOOM_NUM_THREADS"))
        n = static_cast<unsigned>(available_cpus().size());
    // OMP_NUM_THREADS=1 would make a pool of one worker, which keeps the thread that
    // starts it outside (core/pool.hpp): the initial thread then ran its regions as a
    // thread outside the pool, which shares the workers there are and never grows the
    // pool, so `parallel num_threads(4)` got one thread where libgomp and libomp give
    // four (GCC's libgomp.c++/ctor-8.C and 59 more at OMP_NUM_THREADS=1). Two workers
    // make the main thread slot 0, as in any larger pool; the other sleeps until a
    // region asks for it. nthreads-var stays 1. LOOM_NUM_THREADS=1 is taken as asked.
    if (n == 0 && g.nthreads_set && !g.nthreads_malformed && !g.nthreads_list.empty() &&
        g.nthreads_list[0] == 1 && !env_value("LOOM_NUM_THREADS") && gettid() == getpid())
        n = 2;
    o.num_threads = n;
    if (g.stacksize) o.stack_size = g.stacksize;
    o.pin_workers = scheduler_pinning();
    long spin = spin_budget_us();
    if (g.blocktime_us >= 0 || g.wait_policy_set || g.blocktime_infinite)
        o.spin_us = spin < 0 ? 1000000 : spin;
    return o;
}

void after_fork_child() {
    claims::reset();
    new (&g_life_mutex) std::mutex;
    g_pool_size.store(0, std::memory_order_relaxed);
    forget_hot_teams_after_fork();
    reset_threads_after_fork();
    tasking::held::reset_after_fork();
}

void first_use() {
    pthread_atfork(nullptr, nullptr, after_fork_child);
    ext::add_exit_hook(&note_process_exiting);
    const global_icvs& g = globals();
    if (g.display_env) display_env(g.display_env == 2);
    display_settings_if_asked();
    check_foreign_runtimes();
}

void start_locked(unsigned n) {
    process_cpu_count();  // read before the pool binds this thread
    if (!ext::running()) {
        claims::reset();
        ext::start(options(n));
    }
    const std::size_t workers = ext::worker_count();
    g_start_size.store(static_cast<int>(workers), std::memory_order_relaxed);
    g_pool_size.store(static_cast<int>(workers), std::memory_order_release);
}

template <class Target>
int grow_pool_locked(Target target) {
    if (pool_size() <= 0) return 0;
    // Under the life-cycle lock: a pause or a fork child's rebuild never meets a growth.
    std::lock_guard lk(g_life_mutex);
    const int cur = g_pool_size.load(std::memory_order_acquire);
    int n = target(cur);
    // The OS refused a worker at `limit` before (reported then): asking again at every
    // region would repeat the refusal each time.
    if (const int limit = static_cast<int>(ext::worker_limit()); limit > 0 && n > limit) n = limit;
    n = within_thread_limit(n);
    if (n <= cur || !ext::running()) return cur;
    const auto workers = static_cast<int>(ext::grow_workers(static_cast<unsigned>(n)));
    g_pool_size.store(workers, std::memory_order_release);
    return workers;
}

}  // namespace

void ensure_pool() {
    std::call_once(g_once, first_use);
    if (__builtin_expect(g_pool_size.load(std::memory_order_acquire) > 0 && ext::running(), 1))
        return;
    std::lock_guard lk(g_life_mutex);
    start_locked(0);
}

int pool_size() {
    int n = g_pool_size.load(std::memory_order_acquire);
    if (n > 0) return n;
    ensure_pool();
    return g_pool_size.load(std::memory_order_acquire);
}

int default_nthreads_var() {
    (void)pool_size();  // starts the pool if needed, which records its size
    return std::max(1, g_start_size.load(std::memory_order_relaxed));
}

// A team cannot be larger than claims::max_workers: a larger request is cut there,
// said once (libomp gives the full team up to its own limit, 4096 too).
int within_thread_limit(int n) {
    constexpr int limit = static_cast<int>(claims::max_workers);
    if (n <= limit) return n;
    static std::once_flag said;
    std::call_once(said, [n] {
        warn("a team of %d threads was asked for; teams are limited to %d threads, using %d",
             n, limit, limit);
    });
    return limit;
}

// The pool grows while it runs (ext::grow_workers): the workers that exist keep their
// teams, hot teams and threadprivate data, and a nested region can grow it from inside
// a region.
int try_grow_pool(int n) { return grow_pool_locked([n](int) { return n; }); }

// By `more` workers over the size the pool has when the lock is held: nested regions
// short of workers at once each get their own (a target computed from a size read
// earlier would let the first take them all).
int grow_pool_by(int more) { return grow_pool_locked([more](int cur) { return cur + more; }); }

void enter_region() noexcept {
    recheck_foreign_runtimes();
    for (;;) {
        g_in_flight.fetch_add(1, std::memory_order_seq_cst);
        if (!g_quiet.load(std::memory_order_seq_cst)) return;
        g_in_flight.fetch_sub(1, std::memory_order_seq_cst);
        std::lock_guard lk(g_life_mutex);  // until the rebuild or pause is over
    }
}

void leave_region() noexcept { g_in_flight.fetch_sub(1, std::memory_order_seq_cst); }

std::size_t process_cpu_count() {
    // Counted before the first pool starts (ensure_pool calls this first): the scheduler
    // then binds this thread to one place, after which its mask no longer says what the
    // process may use.
    static const std::size_t cpus = available_cpus().size();
    return cpus;
}

int regions_in_flight() noexcept { return g_in_flight.load(std::memory_order_relaxed); }

bool process_exiting() noexcept { return g_exiting.load(std::memory_order_relaxed); }

int pause_pool() {
    thread_state* th = this_thread_if_known();
    if (th && th->current != &th->initial) return -1;  // not from inside a region
    // Not from a loom task: shutting the pool down waits for every task, itself too.
    const int w = ext::current_worker();
    if (w > 0 || (w == 0 && !context_is_tied())) return -1;
    std::lock_guard lk(g_life_mutex);
    if (!ext::running()) return 0;
    // Regions in flight on other threads: the resources are in use, report failure.
    if (!quiesce(0)) return -1;
    dismiss_all_hot_teams();
    if (!claims::none_claimed()) {
        unquiesce();
        return -1;
    }
    ext::shutdown();
    claims::reset();
    g_pool_size.store(0, std::memory_order_release);
    unquiesce();
    return 0;
}

}  // namespace loom::omp
