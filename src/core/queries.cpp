// ext:: entry points that describe the pool: sizes, placement, counters.
#include "config.hpp"
#include "fiber.hpp"
#include "pool.hpp"
#include "runtime.hpp"

namespace loom::ext {

unsigned worker_count() { return core::ensure_pool().size(); }

unsigned grow_workers(unsigned n) { return core::ensure_pool().grow(n); }

bool pool_oversubscribed() noexcept {
    core::pool* p = core::current_pool();
    return p && p->oversubscribed();
}

int current_worker() noexcept {
    core::worker* w = core::this_worker_here();
    return w ? static_cast<int>(w->index) : -1;
}

// A fiber mapped here goes to the worker's cache, where the park takes it.
bool can_park_now() noexcept {
    core::worker* w = core::this_worker();
    if (!w) return false;
    if (!w->fiber_cache.empty()) return true;
    core::fiber* f = w->take_fiber();
    if (!f) return false;
    w->give_back(f);
    return true;
}

bool worker_in_task(unsigned w) noexcept {
    core::pool* p = core::current_pool();
    return p && w < p->size() && p->at(w).in_task.load(std::memory_order_relaxed);
}

std::size_t stack_size() noexcept {
    core::pool* p = core::current_pool();
    return p ? p->cfg.stack_size : 0;
}

long spin_budget_us() noexcept {
    core::pool* p = core::current_pool();
    return p ? p->cfg.spin_us : core::resolve_default_spin();
}

bool spin_budget_adapts() noexcept {
    core::pool* p = core::current_pool();
    return p ? p->cfg.spin_adaptive : core::default_spin_adapts();
}

long idle_spin_budget_us() noexcept {
    core::pool* p = core::current_pool();
    if (!p) return -1;
    core::worker* w = core::this_worker_here();
    if (!p->cfg.spin_adaptive || !w || &w->owner != p) return p->cfg.spin_us;
    return static_cast<long>(w->spin.budget_ns / 1000);
}

void note_idle_wait(long long waited_ns, bool slept) noexcept {
    core::pool* p = core::current_pool();
    core::worker* w = core::this_worker_here();
    if (p && p->cfg.spin_adaptive && w && &w->owner == p) w->spin.record(waited_ns, slept);
}

std::vector<worker_stats> stats() {
    std::vector<worker_stats> out;
    core::pool* p = core::current_pool();
    if (!p) return out;
    for (unsigned i = 0; i < p->size(); ++i) {
        const core::worker_counters& c = p->at(i).counters;
        out.push_back({c.tasks_run.get(), c.steals.get(), c.failed_steals.get(), c.sleeps.get(),
                       c.fibers_created.get(), c.suspensions.get(), c.tasks_stolen.get(), c.rings.get(),
                       c.handoffs.get()});
    }
    return out;
}

std::vector<unsigned> worker_place(unsigned w) {
    core::pool* p = core::current_pool();
    if (!p || w >= p->size() || !p->cfg.pin_workers) return {};
    return p->place(w);
}

std::vector<unsigned> worker_victims(unsigned w) {
    core::pool* p = core::current_pool();
    if (!p || w >= p->size()) return {};
    const auto& v = p->victims(w);
    std::vector<unsigned> out;
    for (unsigned x : v)
        if (x < p->size()) out.push_back(x);
    return out;
}

}  // namespace loom::ext
