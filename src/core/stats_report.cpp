// LOOM_STATS summary (stats_report.hpp). Idle share: the part of the workers' wall time
// the process did not spend on a CPU (workers x wall - CPU seconds), since loom's
// workers sleep when idle. Energy: the RAPL package counters of
// /sys/class/powercap, when readable, labelled with that source.
#include "stats_report.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "pool.hpp"

namespace loom::core {

namespace {

struct totals {
    std::uint64_t tasks = 0, steals = 0, tasks_stolen = 0, failed_steals = 0, rings = 0, handoffs = 0, sleeps = 0, fibers = 0, suspensions = 0;
    unsigned max_workers = 0;
};

// Written at load (LOOM_STATS) or by enable_stats_report; read by the threads that
// archive and report. Relaxed: g_lock orders the data it guards.
std::atomic<bool> g_on{false};
std::mutex g_lock;
totals g_totals;
std::chrono::steady_clock::time_point g_start;
std::vector<std::string> g_rapl_zones;
std::vector<double> g_rapl_start_j;

// Package-level RAPL zones: /sys/class/powercap/intel-rapl:N/energy_uj.
void find_rapl() {
    for (int n = 0; n < 16; ++n) {
        std::string zone = "/sys/class/powercap/intel-rapl:" + std::to_string(n) + "/energy_uj";
        std::ifstream in(zone);
        double uj = 0;
        if (!(in >> uj)) continue;
        g_rapl_zones.push_back(zone);
        g_rapl_start_j.push_back(uj / 1e6);
    }
}

void add(totals& t, const pool& p) {
    for (unsigned i = 0; i < p.size(); ++i) {
        const worker_counters& c = const_cast<pool&>(p).at(i).counters;
        t.tasks += c.tasks_run.get();
        t.steals += c.steals.get();
        t.tasks_stolen += c.tasks_stolen.get();
        t.failed_steals += c.failed_steals.get();
        t.rings += c.rings.get();
        t.handoffs += c.handoffs.get();
        t.sleeps += c.sleeps.get();
        t.fibers += c.fibers_created.get();
        t.suspensions += c.suspensions.get();
    }
    t.max_workers = std::max(t.max_workers, p.size());
}

double cpu_seconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

std::vector<std::string (*)()>& sources() {
    static auto* s = new std::vector<std::string (*)()>();  // never destroyed: used at exit
    return *s;
}

// Under g_lock. The first call notes the start time and the energy counters.
void start_measuring() {
    if (g_on.load(std::memory_order_relaxed)) return;
    g_start = std::chrono::steady_clock::now();
    find_rapl();
    g_on.store(true, std::memory_order_relaxed);
}

std::vector<std::string> extra_stats_lines() {
    std::vector<std::string> lines;
    for (auto* source : sources()) lines.push_back(source());
    return lines;
}

}  // namespace

void stats_configure() noexcept {
    static std::once_flag once;
    std::call_once(once, [] {
        const char* v = std::getenv("LOOM_STATS");
        if (!v || !*v || std::string(v) == "0" || std::string(v) == "false") return;
        std::lock_guard guard(g_lock);
        start_measuring();
    });
}

void stats_archive(const pool& p) noexcept {
    if (!g_on.load(std::memory_order_relaxed)) return;
    std::lock_guard guard(g_lock);
    add(g_totals, p);
}

void stats_report(const pool* live) noexcept {
    if (!g_on.load(std::memory_order_relaxed)) return;
    std::lock_guard guard(g_lock);
    totals t = g_totals;
    if (live) add(t, *live);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
    const double cpu = cpu_seconds();
    const double capacity = wall * std::max(1U, t.max_workers);
    const double idle = capacity > 0 ? std::clamp(1.0 - cpu / capacity, 0.0, 1.0) : 0.0;
    std::FILE* o = stderr;
    std::fprintf(o, "loom: ---- summary (LOOM_STATS) ----\n");
    std::fprintf(o, "loom: workers            %u\n", t.max_workers);
    std::fprintf(o, "loom: tasks run          %llu (from the queues; OpenMP tasks a waiting task runs inline are not counted)\n",
                 static_cast<unsigned long long>(t.tasks));
    std::fprintf(o, "loom: steals             %llu taking %llu tasks (failed steal rounds %llu)\n",
                 static_cast<unsigned long long>(t.steals), static_cast<unsigned long long>(t.tasks_stolen),
                 static_cast<unsigned long long>(t.failed_steals));
    std::fprintf(o, "loom: idle spins         %llu handed a task, %llu rung to rescan (doorbell)\n",
                 static_cast<unsigned long long>(t.handoffs), static_cast<unsigned long long>(t.rings));
    std::fprintf(o, "loom: parks / fibers     %llu suspensions, %llu fibers mapped, %llu sleeps\n",
                 static_cast<unsigned long long>(t.suspensions), static_cast<unsigned long long>(t.fibers),
                 static_cast<unsigned long long>(t.sleeps));
    std::fprintf(o, "loom: wall time          %.3f s\n", wall);
    std::fprintf(o, "loom: CPU time           %.3f s (process, user + system)\n", cpu);
    std::fprintf(o, "loom: idle share         %.1f %% of %u workers x wall time\n", idle * 100.0, t.max_workers);
    if (g_rapl_zones.empty()) {
        std::fprintf(o, "loom: energy             not available (no readable RAPL counters in /sys/class/powercap)\n");
    } else {
        double joules = 0;
        for (std::size_t i = 0; i < g_rapl_zones.size(); ++i) {
            std::ifstream in(g_rapl_zones[i]);
            double uj = 0;
            if (in >> uj) joules += std::max(0.0, uj / 1e6 - g_rapl_start_j[i]);
        }
        std::fprintf(o, "loom: energy             %.2f J (RAPL packages, /sys/class/powercap)\n", joules);
    }
    for (const auto& line : extra_stats_lines()) std::fprintf(o, "loom: %s\n", line.c_str());
}

}  // namespace loom::core

namespace loom::ext {

void enable_stats_report() noexcept {
    core::stats_configure();  // LOOM_STATS first: its start time wins
    std::lock_guard guard(core::g_lock);
    core::start_measuring();
}

void add_stats_source(std::string (*source)()) {
    std::lock_guard guard(core::g_lock);
    core::sources().push_back(source);
}

}  // namespace loom::ext
