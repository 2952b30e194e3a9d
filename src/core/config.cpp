#include "config.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

#include "cgroup.hpp"
#include "loom/ext/size_parse.hpp"

namespace loom::core {

namespace {

constexpr std::size_t min_stack = std::size_t{64} << 10;
constexpr std::size_t max_stack = std::size_t{1} << 30;
constexpr long max_threads = 4096;

std::string trim(std::string s) {
    auto not_space = [](unsigned char c) { return !std::isspace(c); };
    while (!s.empty() && !not_space(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && !not_space(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return (v && *v) ? v : nullptr;
}

unsigned affinity_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return static_cast<unsigned>(n);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 1U;
}

unsigned resolve_threads(const ext::pool_options& opts) {
    unsigned fallback = usable_cpus();
    if (opts.num_threads > 0) return std::min<unsigned>(opts.num_threads, max_threads);
    for (const char* var : {"LOOM_NUM_THREADS", "OMP_NUM_THREADS"}) {
        const char* raw = env(var);
        if (!raw) continue;
        std::string text = raw;
        // OMP_NUM_THREADS may be a nesting list "4,2": the first level sizes the pool.
        std::string first = text.substr(0, text.find(','));
        auto n = parse_count(first);
        if (n && *n >= 1 && *n <= max_threads) return static_cast<unsigned>(*n);
        warn_bad_value(var, text, "is not a thread count between 1 and 4096",
                       std::to_string(fallback));
        return fallback;
    }
    return fallback;
}

std::size_t resolve_stack(const ext::pool_options& opts) {
    constexpr std::size_t fallback = std::size_t{1} << 20;
    if (opts.stack_size > 0) return std::clamp(opts.stack_size, min_stack, max_stack);
    const char* raw = env("LOOM_STACKSIZE");
    if (!raw) return fallback;
    auto n = parse_size(raw, 'B');
    if (n && *n >= min_stack && *n <= max_stack) return *n;
    warn_bad_value("LOOM_STACKSIZE", raw, "is not a size between 64K and 1G (units B, K, M, G)",
                   "1M");
    return fallback;
}

long resolve_spin(const ext::pool_options& opts) {
    constexpr long fallback = 100;
    constexpr long max_spin = 10'000'000;  // 10 s: beyond that "spin forever" is meant
    if (opts.spin_us >= 0) return std::min(opts.spin_us, max_spin);
    const char* raw = env("LOOM_SPIN_US");
    if (!raw) return fallback;
    auto n = parse_count(raw);
    if (n && *n <= max_spin) return *n;
    warn_bad_value("LOOM_SPIN_US", raw, "is not a number of microseconds (0 to 10000000)",
                   std::to_string(fallback));
    return fallback;
}

// LOOM_PIN=true|1|yes|on binds each worker to its place. Not by default: loom is a
// guest, and the binding of the adopted main thread would leak into what the process
// sees (omp_get_num_procs through the mask, nproc in a child, other libraries' thread
// pools created later, which all inherit it). OpenMP binding (OMP_PROC_BIND,
// OMP_PLACES) is the OpenMP layer's, on request.
bool resolve_pin(const ext::pool_options& opts) {
    if (opts.pin_workers >= 0) return opts.pin_workers > 0;
    return resolve_switch("LOOM_PIN", false);
}

}  // namespace

std::optional<bool> parse_switch(const std::string& raw) {
    std::string v = trim(raw);
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
    if (v == "0" || v == "false" || v == "no" || v == "off") return false;
    return std::nullopt;
}

bool resolve_switch(const char* variable, bool fallback) {
    const char* raw = env(variable);
    if (!raw) return fallback;
    if (auto b = parse_switch(raw)) return *b;
    warn_bad_value(variable, raw, "is not true/false (1/0, yes/no, on/off)", fallback ? "true" : "false");
    return fallback;
}

unsigned usable_cpus() {
    unsigned n = affinity_cpus();
    if (auto limit = process_cgroup_cpu_limit()) n = std::min(n, *limit);
    return std::max(n, 1U);
}

std::optional<long> parse_count(const std::string& raw) {
    std::string text = trim(raw);
    if (text.empty() || !std::all_of(text.begin(), text.end(),
                                     [](unsigned char c) { return std::isdigit(c); }))
        return std::nullopt;
    errno = 0;
    long v = std::strtol(text.c_str(), nullptr, 10);
    if (errno == ERANGE) return std::nullopt;
    return v;
}

std::optional<std::size_t> parse_size(const std::string& raw, char default_unit) {
    return ext::parse_size(raw, default_unit);
}

void warn_bad_value(const char* variable, const std::string& value, const char* why,
                    const std::string& instead) {
    static std::mutex lock;
    static std::set<std::string> warned;
    std::lock_guard guard(lock);
    if (!warned.insert(variable).second) return;
    std::fprintf(stderr, "loom: warning: %s='%s' %s; using %s\n", variable, value.c_str(), why,
                 instead.c_str());
}

double resolve_exit_timeout() {
    constexpr double fallback = 5.0;
    const char* raw = env("LOOM_EXIT_TIMEOUT");
    if (!raw) return fallback;
    std::string v = trim(raw);
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    if (v == "infinite" || v == "infinity") return -1.0;
    char* end = nullptr;
    errno = 0;
    const double s = std::strtod(v.c_str(), &end);
    if (!v.empty() && end && *end == '\0' && errno == 0 && std::isfinite(s)) return s < 0 ? -1.0 : s;
    warn_bad_value("LOOM_EXIT_TIMEOUT", raw, "is not a number of seconds or 'infinite'", "5");
    return fallback;
}

long resolve_default_spin() { return resolve_spin(ext::pool_options{}); }

bool default_spin_adapts() { return env("LOOM_SPIN_US") == nullptr; }

config resolve_config(const ext::pool_options& opts) {
    config c;
    c.num_threads = resolve_threads(opts);
    c.stack_size = resolve_stack(opts);
    c.spin_us = resolve_spin(opts);
    c.spin_adaptive = opts.spin_us < 0 && default_spin_adapts();
    c.pin_workers = resolve_pin(opts);
    c.cpus = usable_cpus();
    return c;
}

}  // namespace loom::core
