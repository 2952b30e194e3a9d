// Pool life cycle: lazy start, growth, omp_pause_resource and fork().
//
// fork(): the child has only the forking thread. Our pthread_atfork child handler
// forgets every claim, cached team and thread record but the caller's, so the child's
// first region starts from scratch. The scheduler must itself report running() ==
// false in the child (its workers are gone); see docs/omp.md, "Process life".
#include "lifecycle.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "claims.hpp"
#include "env.hpp"
#include "icv.hpp"
#include "loom/ext/scheduler.hpp"
#include "team.hpp"
#include "thread.hpp"

namespace loom::omp {

void display_env(bool verbose);
void forget_hot_teams_after_fork() noexcept;

namespace {

std::mutex g_life_mutex;
std::atomic<int> g_pool_size{0};
std::once_flag g_once;

ext::pool_options options(unsigned n) {
    ext::pool_options o;
    const global_icvs& g = globals();
    // The scheduler reads OMP_NUM_THREADS itself; when it is malformed we already
    // warned, so size the pool explicitly and keep it to one warning.
    if (n == 0 && g.nthreads_malformed && !std::getenv("LOOM_NUM_THREADS"))
        n = static_cast<unsigned>(available_cpus().size());
    o.num_threads = n;
    if (g.stacksize) o.stack_size = g.stacksize;
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
}

void first_use() {
    pthread_atfork(nullptr, nullptr, after_fork_child);
    const global_icvs& g = globals();
    if (g.display_env) display_env(g.display_env == 2);
}

void start_locked(unsigned n) {
    if (!ext::running()) {
        claims::reset();
        ext::start(options(n));
    }
    g_pool_size.store(static_cast<int>(ext::worker_count()), std::memory_order_release);
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

int try_grow_pool(int n) {
    int cur = pool_size();
    if (n <= cur || n > static_cast<int>(claims::max_workers)) return cur;
    if (ext::current_worker() != 0) return cur;  // only the thread in slot 0
    thread_state* th = this_thread();
    if (th->current != &th->initial) return cur;  // only outside every region
    dismiss_hot_teams(th);
    std::lock_guard lk(g_life_mutex);
    if (!claims::none_claimed()) return cur;
    ext::shutdown();
    g_pool_size.store(0, std::memory_order_relaxed);
    start_locked(static_cast<unsigned>(n));
    return g_pool_size.load(std::memory_order_acquire);
}

int pause_pool() {
    thread_state* th = this_thread_if_known();
    if (th && th->current != &th->initial) return -1;  // not from inside a region
    dismiss_all_hot_teams();
    std::lock_guard lk(g_life_mutex);
    if (!ext::running()) return 0;
    ext::shutdown();
    claims::reset();
    g_pool_size.store(0, std::memory_order_release);
    return 0;
}

}  // namespace loom::omp
