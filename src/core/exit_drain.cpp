// The exit contract (docs/architecture.md, "Shutdown, exit and fork"): work still
// queued or running when the process exits finishes before the program's static
// destructors run, within a bound (LOOM_EXIT_TIMEOUT); what is left after the bound is
// named once and abandoned, so exit never hangs and no queued task starts once
// destructors may have run.
//
// Why an atexit handler registered when the first pool starts: handlers and static
// destructors run in the reverse order of their registration, so this one runs before
// the destructors of every global the program constructed before it first used loom
// (its globals, and function statics made before then). libloom's own static destructor
// (runtime.cpp) runs after all of them and would let queued tasks touch freed globals.
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "config.hpp"
#include "runtime.hpp"
#include "stats_report.hpp"
#include "trace.hpp"

namespace loom::core {

namespace {

std::mutex g_hooks_lock;
std::vector<void (*)()>& exit_hooks() {
    static std::vector<void (*)()>* hooks = new std::vector<void (*)()>();  // never destroyed
    return *hooks;
}

void nap(long ns) noexcept {
    timespec ts{0, ns};
    nanosleep(&ts, nullptr);
}

// Waits until the pool is quiescent or `limit` passes; true if quiescent. The exiting
// thread only watches: were it to take part (slot 0 parks and runs tasks while it
// waits), a task that never ends would hold it forever.
bool wait_quiescent(pool& p, double limit_s) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration<double>(limit_s);
    long pause_ns = 10'000;
    while (!p.quiescent_now()) {
        if (limit_s >= 0 && clock::now() >= deadline) return false;
        nap(pause_ns);
        if (pause_ns < 1'000'000) pause_ns *= 2;
    }
    return true;
}

void drain_pool_at_exit() {
    {
        std::lock_guard guard(g_hooks_lock);
        for (void (*hook)() : exit_hooks()) hook();
    }
    pool* p = current_pool();
    if (!p || abandoning_at_exit()) return;
    worker* w = this_worker();
    // exit() from a pool thread, or from a task the main thread runs: the caller is
    // itself work in flight and can wait for neither itself nor its thread. The rest
    // is left to the process's end, as libomp does with its threads.
    if (w && (!p->is_adopted(*w) || w->current != &w->native)) {
        ext::abandon_at_exit();
        return;
    }
    const double limit = resolve_exit_timeout();
    if (wait_quiescent(*p, limit)) {
        ext::shutdown();
        return;
    }
    const pool::unfinished_work u = p->unfinished();
    if (u.total == 0 && p->quiescent_now()) {
        // The last of it ended at the deadline (a slow machine: seen with 1500 members
        // leaving a team under ThreadSanitizer): nothing to name, nothing to abandon.
        ext::shutdown();
        return;
    }
    std::fprintf(stderr,
                 "loom: warning: at exit, %llu task%s unfinished after %g s (LOOM_EXIT_TIMEOUT): "
                 "%llu queued, %llu running, %llu parked; abandoned: queued and parked ones "
                 "will not run\n",
                 static_cast<unsigned long long>(u.total), u.total == 1 ? " is" : "s are", limit,
                 static_cast<unsigned long long>(u.queued), static_cast<unsigned long long>(u.running),
                 static_cast<unsigned long long>(u.parked));
    ext::abandon_at_exit();
    p->stop_taking_work();
}

// Then the reports asked for (LOOM_STATS, LOOM_TRACE): the pools' counters and
// events are complete once the work is done; after an abandon the trace of the pool
// still running is left out (its workers may still write it).
void drain_at_exit() {
    drain_pool_at_exit();
    stats_report(current_pool());
    trace_write();
}

}  // namespace

void arm_exit_drain() {
    static std::once_flag once;
    std::call_once(once, [] { std::atexit(&drain_at_exit); });
}

}  // namespace loom::core

namespace loom::ext {

void add_exit_hook(void (*hook)()) {
    std::lock_guard guard(core::g_hooks_lock);
    core::exit_hooks().push_back(hook);
}

}  // namespace loom::ext
