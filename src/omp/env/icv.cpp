// Global ICVs and their inheritance rules (OpenMP 5.2, 2.4 and 2.6.1).
#include "env/icv.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "env/env.hpp"
#include "parallel/lifecycle.hpp"
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

bool spin_budget_fixed() noexcept {
    if (g_blocktime_override.load(std::memory_order_relaxed) >= -1) return true;
    const global_icvs& g = globals();
    return g.blocktime_infinite || g.blocktime_us >= 0 || g.wait_policy_set;
}

bool hot_team_level(int level) noexcept {
    return level >= 1 && level <= globals().hot_teams_max_level;
}

long linger_budget_us(int level) noexcept {
    if (spin_budget_fixed()) return spin_budget_us();
    // libomp keeps the threads of a hot team reserved for it between regions, spinning
    // for KMP_BLOCKTIME (default 200 ms, kmp.h KMP_DEFAULT_BLOCKTIME). A program that
    // asks for hot nested teams expects their members back in the next region: the same
    // threads with the same numbers (what OMP_DISPLAY_AFFINITY shows). The adaptive
    // budget, a few microseconds on a loaded machine, handed them to other teams.
    constexpr long libomp_default_blocktime_us = 200 * 1000;
    if (hot_team_level(level)) return libomp_default_blocktime_us;
    return ext::idle_spin_budget_us();
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
    const std::vector<int>& list = parent.nthreads_list ? *parent.nthreads_list : g.nthreads_list;
    if (parent.nthreads_from_list && parent.nthreads_pos + 1u < list.size()) {
        child.nthreads_pos = static_cast<unsigned char>(parent.nthreads_pos + 1);
        child.nthreads = list[child.nthreads_pos];
    }
    if (parent.bind_pos + 1u < g.bind_list.size()) {
        child.bind_pos = static_cast<unsigned char>(parent.bind_pos + 1);
        child.bind = static_cast<signed char>(g.bind_list[child.bind_pos]);
    }
}

const std::vector<int>* intern_nthreads_list(const int* list, unsigned n) {
    static std::mutex m;
    static auto& lists = *new std::vector<std::unique_ptr<std::vector<int>>>;  // never freed
    constexpr unsigned max_len = 255;  // task_icvs::nthreads_pos is one byte
    std::vector<int> v(list, list + std::min(n, max_len));
    for (int& x : v) x = std::max(x, 1);
    std::lock_guard lk(m);
    for (const auto& l : lists)
        if (*l == v) return l.get();
    lists.push_back(std::make_unique<std::vector<int>>(std::move(v)));
    return lists.back().get();
}

// The product of nthreads-var over the nested levels a list names, each level using
// the next entry (the last one repeats). How deep: the longer of OMP_NUM_THREADS and
// the clause's list, within max-active-levels. Capped at 64 or 8 per processor: the
// product grows exponentially with the depth, and a list longer than the program's
// real nesting would otherwise start hundreds of idle workers.
int nest_demand(int n, const task_icvs& child, int limit) {
    const global_icvs& g = globals();
    const std::size_t own = child.nthreads_list ? child.nthreads_list->size() : 0;
    const std::size_t depth = std::max(g.nthreads_list.size(), own);
    const long per_cpu = 8L * static_cast<long>(process_cpu_count());
    long cap = std::max(64L, per_cpu);
    if (limit > 0) cap = std::min(cap, static_cast<long>(limit));
    if (depth < 2 || !child.nthreads_from_list) {
        // No list, but nesting enabled: each member may open a team of nthreads-var
        // (its inherited value) one level down. Teams are gangs, so without these
        // workers the inner teams would get only what is left of the pool.
        if (child.max_active_levels < 2 || child.nthreads <= 1) return n;
        return static_cast<int>(std::max(static_cast<long>(n),
                                         std::min(static_cast<long>(n) * child.nthreads, cap)));
    }
    long need = n;
    task_icvs icv = child;
    for (std::size_t level = 1; level < depth && static_cast<int>(level) < icv.max_active_levels;
         ++level) {
        if (icv.nthreads <= 1 || need >= cap) break;
        need *= icv.nthreads;
        task_icvs next;
        inherit_icvs(icv, next);
        icv = next;
    }
    return static_cast<int>(std::max(static_cast<long>(n), std::min(need, cap)));
}

}  // namespace loom::omp
