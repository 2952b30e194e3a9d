// Global ICVs and their inheritance rules (OpenMP 5.2, 2.4 and 2.6.1).
#include "icv.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "env.hpp"
#include "loom/ext/scheduler.hpp"

namespace loom::omp {

namespace {
std::atomic<long> g_blocktime_override{-2};  // -2 = not set by kmp_set_blocktime
}

global_icvs& globals() {
    static global_icvs* g = [] {
        auto* p = new global_icvs;  // never destroyed: used until the last thread exits
        parse_environment(*p);
        return p;
    }();
    return *g;
}

long spin_budget_us() noexcept {
    long o = g_blocktime_override.load(std::memory_order_relaxed);
    if (o >= -1) return o;
    const global_icvs& g = globals();
    if (g.blocktime_infinite) return -1;
    if (g.blocktime_us >= 0) return g.blocktime_us;
    if (g.wait_policy_set) return g.wait_policy_active ? -1 : 0;
    return ext::spin_budget_us();
}

void set_blocktime_ms(int ms) noexcept {
    g_blocktime_override.store(ms < 0 ? 0 : static_cast<long>(ms) * 1000,
                               std::memory_order_relaxed);
}

int blocktime_ms() noexcept {
    long us = spin_budget_us();
    if (us < 0) return 2147483647;
    return static_cast<int>(us / 1000);
}

int default_nthreads() { return static_cast<int>(ext::worker_count()); }

void inherit_icvs(const task_icvs& parent, task_icvs& child) noexcept {
    child = parent;
    const global_icvs& g = globals();
    if (parent.nthreads_from_list && parent.nthreads_pos + 1u < g.nthreads_list.size()) {
        child.nthreads_pos = static_cast<unsigned char>(parent.nthreads_pos + 1);
        child.nthreads = g.nthreads_list[child.nthreads_pos];
    }
    if (parent.bind_pos + 1u < g.bind_list.size()) {
        child.bind_pos = static_cast<unsigned char>(parent.bind_pos + 1);
        child.bind = static_cast<signed char>(g.bind_list[child.bind_pos]);
    }
}

}  // namespace loom::omp
