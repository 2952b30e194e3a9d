// loom::runtime and the observation functions of the public API.
#include "loom/runtime.hpp"

#include "loom/ext/scheduler.hpp"

namespace loom {

runtime::runtime(const runtime_options& opts) {
    ext::pool_options p;
    p.num_threads = opts.num_threads;
    p.stack_size = opts.stack_size;
    p.spin_us = opts.spin_us;
    p.pin_workers = opts.pin_workers;
    owns_ = ext::start(p);
}

runtime::~runtime() {
    if (owns_) ext::shutdown();
}

unsigned num_threads() { return ext::worker_count(); }

int this_worker() noexcept { return ext::current_worker(); }

std::vector<worker_stats> stats() { return ext::stats(); }

worker_stats total(const std::vector<worker_stats>& per_worker) noexcept {
    worker_stats t;
    for (const worker_stats& w : per_worker) {
        t.tasks_run += w.tasks_run;
        t.steals += w.steals;
        t.failed_steals += w.failed_steals;
        t.sleeps += w.sleeps;
        t.fibers_created += w.fibers_created;
        t.suspensions += w.suspensions;
        t.tasks_stolen += w.tasks_stolen;
    }
    return t;
}

}  // namespace loom
