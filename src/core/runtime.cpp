#include "runtime.hpp"
#include "stats_report.hpp"
#include "trace.hpp"

#include <pthread.h>

#include <cstdio>
#include <mutex>

namespace loom::core {

std::atomic<pool*> g_pool{nullptr};

namespace {

std::atomic<unsigned> g_worker_limit{0};

std::mutex g_lifecycle;  // serialises start and shutdown

pool* start_locked(const ext::pool_options& opts) {
    config c = resolve_config(opts);
    // Capped silently: the refusal that set the limit was reported when it happened.
    if (unsigned limit = worker_limit(); limit > 0 && c.num_threads > limit) c.num_threads = limit;
    arm_exit_drain();
    auto* p = new pool(c);
    g_pool.store(p, std::memory_order_release);
    return p;
}

// In a child of fork() only the forking thread exists: the parent's workers are gone
// and their queues unreachable. The child forgets the pool (leaking it: its memory
// may be in any state) and builds a new one lazily on first use.
void forget_pool_in_child() noexcept {
    if (pool* p = g_pool.load(std::memory_order_relaxed)) p->restore_slot0_mask_in_child();
    g_pool.store(nullptr, std::memory_order_relaxed);
    g_worker_limit.store(0, std::memory_order_relaxed);  // the child may try once more
    new (&g_lifecycle) std::mutex();
    set_this_worker(nullptr);
}

std::atomic<bool> g_abandon_at_exit{false};

struct process_hooks {
    process_hooks() {
        pthread_atfork(nullptr, nullptr, &forget_pool_in_child);
        // At load, not at pool start: an OpenMP fork names its region before the pool
        // it will run on exists.
        trace_configure();
        stats_configure();
    }
    // At exit, wait for tasks still in flight, then stop the threads. Skipped when
    // exit() is called from a pool thread (that thread cannot join itself) and when a
    // layer above said the tasks in flight can no longer finish (abandon_at_exit).
    ~process_hooks() {
        if (g_abandon_at_exit.load(std::memory_order_relaxed)) return;
        worker* w = this_worker();
        if (w && !w->owner.is_adopted(*w)) return;
        ext::shutdown();
    }
};
process_hooks g_hooks;

}  // namespace

unsigned worker_limit() noexcept { return g_worker_limit.load(std::memory_order_relaxed); }

void remember_limit(unsigned workers) noexcept {
    unsigned cur = g_worker_limit.load(std::memory_order_relaxed);
    while ((cur == 0 || workers < cur) &&
           !g_worker_limit.compare_exchange_weak(cur, workers, std::memory_order_relaxed)) {
    }
}

bool abandoning_at_exit() noexcept { return g_abandon_at_exit.load(std::memory_order_relaxed); }

pool& start_pool() {
    std::lock_guard guard(g_lifecycle);
    if (pool* p = g_pool.load(std::memory_order_relaxed)) return *p;
    return *start_locked(ext::pool_options{});
}

}  // namespace loom::core

namespace loom::ext {

bool start(const pool_options& opts) {
    std::lock_guard guard(core::g_lifecycle);
    if (core::g_pool.load(std::memory_order_relaxed)) return false;
    core::start_locked(opts);
    return true;
}

void ensure_started() { core::ensure_pool(); }

bool running() noexcept { return core::current_pool() != nullptr; }

unsigned worker_limit() noexcept { return core::worker_limit(); }

void abandon_at_exit() noexcept { core::g_abandon_at_exit.store(true, std::memory_order_relaxed); }

void shutdown() {
    std::lock_guard guard(core::g_lifecycle);
    core::pool* p = core::g_pool.load(std::memory_order_relaxed);
    if (!p) return;
    core::worker* w = core::this_worker();
    if (w && (!p->is_adopted(*w) || w->current != &w->native)) {
        std::fprintf(stderr, "loom: warning: shutdown() called from inside a task; ignored\n");
        return;
    }
    p->drain();
    core::g_pool.store(nullptr, std::memory_order_release);
    delete p;
}

}  // namespace loom::ext
