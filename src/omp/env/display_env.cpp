// OMP_DISPLAY_ENV / omp_display_env and KMP_SETTINGS in libomp's formats (on stderr).
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>  // environ

#include "abi.hpp"
#include "env/env_text.hpp"
#include "env/icv.hpp"
#include "loom/ext/scheduler.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {

std::string size_text(std::size_t bytes) {
    const char* units = "BKMGT";
    int u = 0;
    while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        ++u;
    }
    return std::to_string(bytes) + (u == 0 ? std::string("B") : std::string(1, units[u]));
}

std::string join(const std::vector<int>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(v[i]);
    }
    return s;
}

const char* bind_name(int b) {
    switch (b) {
        case 1: return "true";
        case 2: return "primary";
        case 3: return "close";
        case 4: return "spread";
        default: return "false";
    }
}

// OMP_DISPLAY_ENV lines start with "  [host] ", KMP_SETTINGS lines with three spaces.
const char* g_indent = "  [host] ";

void line(const char* name, const std::string& value) {
    std::fprintf(stderr, "%s%s='%s'\n", g_indent, name, value.c_str());
}

void undefined(const char* name) { std::fprintf(stderr, "%s%s: value is not defined\n", g_indent, name); }

bool settings_asked() {
    const char* v = env_value("KMP_SETTINGS");
    if (!v) return false;
    std::string s;
    for (const char* p = v; *p; ++p) s += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    return s == "1" || s == "true" || s == "yes" || s == "on" || s == ".true.";
}

// The runtime's variables found in the environment, sorted.
std::vector<std::string> user_settings() {
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e)
        for (const char* prefix : {"KMP_", "OMP_", "GOMP_", "LOOM_", "LIBOMP_"})
            if (std::strncmp(*e, prefix, std::strlen(prefix)) == 0) out.emplace_back(*e);
    std::sort(out.begin(), out.end());
    return out;
}

// The spin budget as KMP_BLOCKTIME and LOOM_SPIN_US show it. Unless an OpenMP setting
// or LOOM_SPIN_US fixed it, each worker adapts it below its configured value
// (core/spin_policy.hpp).
struct spin_text {
    std::string blocktime;
    std::string spin_us;
};
spin_text describe_spin_budget() {
    const long us = spin_budget_us();
    if (!spin_budget_fixed() && ext::spin_budget_adapts()) {
        const std::string adaptive = "adaptive, up to " + std::to_string(us) + " us";
        return {adaptive, adaptive};
    }
    if (us < 0) return {"infinite", "infinite"};
    return {us % 1000 == 0 ? std::to_string(us / 1000) : std::to_string(us) + "us", std::to_string(us)};
}

void display_values(bool verbose) {
    global_icvs& g = globals();
    const task_icvs& icv = g.initial;
    if (verbose) {
        const spin_text spin = describe_spin_budget();
        line("KMP_BLOCKTIME", spin.blocktime);
        line("KMP_HOT_TEAMS_MAX_LEVEL", std::to_string(g.hot_teams_max_level));
        line("KMP_LIBRARY", g.library == 0 ? "serial" : g.library == 2 ? "turnaround" : "throughput");
        line("KMP_STACKSIZE", size_text(g.stacksize ? g.stacksize : ext::stack_size()));
        line("LOOM_SPIN_US", spin.spin_us);
        line("LOOM_WORKERS", std::to_string(ext::running() ? ext::worker_count() : 0));
    }
    line("OMP_AFFINITY_FORMAT", g.affinity_format);
    line("OMP_ALLOCATOR", g.default_allocator);
    line("OMP_CANCELLATION", g.cancellation ? "TRUE" : "FALSE");
    line("OMP_DEFAULT_DEVICE", std::to_string(icv.default_device));
    line("OMP_DISPLAY_AFFINITY", g.display_affinity ? "TRUE" : "FALSE");
    line("OMP_DISPLAY_ENV", g.display_env == 2 ? "VERBOSE" : g.display_env ? "TRUE" : "FALSE");
    line("OMP_DYNAMIC", icv.dynamic ? "TRUE" : "FALSE");
    line("OMP_MAX_ACTIVE_LEVELS", std::to_string(icv.max_active_levels));
    line("OMP_MAX_TASK_PRIORITY", std::to_string(g.max_task_priority));
    std::fprintf(stderr, "%sOMP_NESTED: deprecated; max-active-levels-var=%d\n", g_indent,
                 icv.max_active_levels);
    line("OMP_NUM_TEAMS", std::to_string(g.num_teams));
    if (g.nthreads_set) line("OMP_NUM_THREADS", join(g.nthreads_list));
    else undefined("OMP_NUM_THREADS");
    if (!g.places_text.empty()) line("OMP_PLACES", g.places_text);
    else undefined("OMP_PLACES");
    {
        std::string b;
        if (g.bind_list.empty()) b = "false";
        for (std::size_t i = 0; i < g.bind_list.size(); ++i) {
            if (i) b += ',';
            b += bind_name(g.bind_list[i]);
        }
        line("OMP_PROC_BIND", b);
    }
    line("OMP_SCHEDULE", g.schedule_text);
    line("OMP_STACKSIZE", size_text(g.stacksize ? g.stacksize : ext::stack_size()));
    std::fprintf(stderr, "%sOMP_TARGET_OFFLOAD=%s\n", g_indent,
                 g.target_offload == 1 ? "DISABLED" : g.target_offload == 2 ? "MANDATORY" : "DEFAULT");
    line("OMP_TEAMS_THREAD_LIMIT", std::to_string(g.teams_thread_limit));
    line("OMP_THREAD_LIMIT", std::to_string(icv.thread_limit > 0 ? icv.thread_limit : INT_MAX));
    line("OMP_TOOL", "disabled");
    undefined("OMP_TOOL_LIBRARIES");
    undefined("OMP_TOOL_VERBOSE_INIT");
    line("OMP_WAIT_POLICY", g.wait_policy_set && g.wait_policy_active ? "ACTIVE" : "PASSIVE");
}

}  // namespace

void display_env(bool verbose) {
    g_indent = "  [host] ";
    std::fprintf(stderr, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
    std::fprintf(stderr, "   _OPENMP='201611'\n");
    display_values(verbose);
    std::fprintf(stderr, "OPENMP DISPLAY ENVIRONMENT END\n\n");
    std::fflush(stderr);
}

// KMP_SETTINGS=true: at start-up, the variables the user set, then the values in
// effect (libomp's "User settings" / "Effective settings" blocks).
void display_settings_if_asked() {
    if (!settings_asked()) return;
    std::fprintf(stderr, "\nUser settings:\n\n");
    for (const std::string& s : user_settings()) std::fprintf(stderr, "   %s\n", s.c_str());
    std::fprintf(stderr, "\nEffective settings:\n\n");
    g_indent = "   ";
    display_values(true);
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

}  // namespace loom::omp

LOOM_OMP_API void omp_display_env(int verbose) { loom::omp::display_env(verbose != 0); }
