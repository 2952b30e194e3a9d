// libgomp's environment variables, with libgomp's syntax (GCC 12 libgomp/env.c:
// parse_spincount, parse_affinity, initialize_env) and loom's reporting: a bad value
// gives one warning naming the variable and what is used instead.
#include "env/gomp_env.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "abi.hpp"
#include "env/env.hpp"
#include "env/env_text.hpp"
#include "env/places.hpp"

namespace loom::omp {

namespace {

// libgomp's estimate: about 100000 spins per millisecond (env.c, initialize_env).
constexpr unsigned long long spins_per_us = 100;
constexpr unsigned long long max_budget_us = 3600ull * 1000000ull;  // one hour

// A count with an optional k, M, G or T suffix (any case; powers of 1000); false if
// the text is not one. Saturates, as libgomp does.
bool parse_spin_count(const std::string& text, unsigned long long& out) {
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == 0 || i > 19) return false;
    unsigned long long mult = 1;
    const std::string unit = lower(trim(text.substr(i)));
    if (unit == "k") mult = 1000ull;
    else if (unit == "m") mult = 1000000ull;
    else if (unit == "g") mult = 1000000000ull;
    else if (unit == "t") mult = 1000000000000ull;
    else if (!unit.empty()) return false;
    errno = 0;
    const unsigned long long n = std::strtoull(text.substr(0, i).c_str(), nullptr, 10);
    if (errno) return false;
    out = n > ~0ull / mult ? ~0ull : n * mult;
    return true;
}

// One GOMP_CPU_AFFINITY item: N, N-M or N-M:S (each number in C syntax, so 0x10 and
// 010 are accepted as by libgomp's strtoul(..., 0)); processors below 65536.
bool parse_cpu_item(const std::string& item, std::vector<int>& cpus) {
    const char* p = item.c_str();
    char* end = nullptr;
    errno = 0;
    const unsigned long beg = std::strtoul(p, &end, 0);
    if (end == p || errno || beg >= 65536) return false;
    unsigned long last = beg, stride = 1;
    if (*end == '-') {
        p = end + 1;
        last = std::strtoul(p, &end, 0);
        if (end == p || errno || last >= 65536 || last < beg) return false;
        if (*end == ':') {
            p = end + 1;
            stride = std::strtoul(p, &end, 0);
            if (end == p || errno || stride == 0 || stride >= 65536) return false;
        }
    }
    if (*end != '\0') return false;
    for (unsigned long c = beg; c <= last; c += stride) cpus.push_back(static_cast<int>(c));
    return true;
}

// The processors listed, separated by white space or commas; false if malformed.
bool parse_cpu_list(const std::string& text, std::vector<int>& cpus) {
    std::string item;
    auto flush = [&] {
        if (item.empty()) return true;
        const bool ok = parse_cpu_item(item, cpus);
        item.clear();
        return ok;
    };
    for (char ch : text) {
        if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
            if (!flush()) return false;
        } else {
            item += ch;
        }
    }
    return flush() && !cpus.empty();
}

// Drops the processors this process may not use, with one warning naming them.
void keep_usable(const char* v, std::vector<int>& cpus) {
    const std::vector<int> usable = available_cpus();
    std::vector<int> dropped;
    std::erase_if(cpus, [&](int c) {
        if (std::binary_search(usable.begin(), usable.end(), c)) return false;
        if (std::find(dropped.begin(), dropped.end(), c) == dropped.end()) dropped.push_back(c);
        return true;
    });
    if (dropped.empty()) return;
    std::string ids;
    for (int c : dropped) {
        if (!ids.empty()) ids.append(", ");
        ids.append(std::to_string(c));
    }
    warn("GOMP_CPU_AFFINITY='%s' names processors this process may not use (%s); ignoring "
         "them", v, ids.c_str());
}

// The places as OMP_PLACES would spell them ("{0},{2},{1}"), for OMP_DISPLAY_ENV.
std::string places_text(const std::vector<int>& cpus) {
    std::string s;
    for (int c : cpus) {
        s.append(s.empty() ? "{" : ",{");
        s.append(std::to_string(c));
        s.push_back('}');
    }
    return s;
}

}  // namespace

void parse_gomp_spincount(global_icvs& g) {
    const char* v = env_value("GOMP_SPINCOUNT");
    if (!v) return;
    const std::string s = lower(trim(v));
    unsigned long long spins = 0;
    if (s == "infinite" || s == "infinity") {
        g.blocktime_infinite = true;
    } else if (parse_spin_count(s, spins)) {
        g.blocktime_us = static_cast<long>(std::min(spins / spins_per_us, max_budget_us));
    } else {
        warn("GOMP_SPINCOUNT='%s' is not a count (with an optional k, M, G or T) or "
             "'infinite'; using the default spin budget instead", v);
    }
}

bool parse_gomp_cpu_affinity(global_icvs& g) {
    const char* v = env_value("GOMP_CPU_AFFINITY");
    if (!v) return false;
    std::vector<int> cpus;
    if (!parse_cpu_list(v, cpus)) {
        warn("GOMP_CPU_AFFINITY='%s' is not a list of processors and ranges (as '0 3 "
             "1-2 4-15:2'); ignoring it", v);
        return false;
    }
    // libgomp parses it but places nothing when OMP_PROC_BIND is explicitly false.
    if (g.bind_set && g.initial.bind == proc_bind_false) return false;
    keep_usable(v, cpus);
    if (cpus.empty()) {
        warn("GOMP_CPU_AFFINITY='%s' names no processor this process may use; not binding "
             "threads to it", v);
        return false;
    }
    g.places.clear();
    for (int c : cpus) g.places.push_back({c});
    g.places_text = places_text(cpus);
    if (!g.bind_set && !kmp_affinity().set && !kmp_affinity().disabled) {
        g.bind_list = {proc_bind_true};
        g.initial.bind = proc_bind_true;
    }
    return true;
}

void parse_gomp_debug() {
    const char* v = env_value("GOMP_DEBUG");
    if (!v) return;
    long level = 0;
    if (!parse_int(v, 0, INT_MAX, level)) {
        warn("GOMP_DEBUG='%s' is not a non-negative integer; using 0 instead", v);
        return;
    }
    if (level != 0)
        warn("GOMP_DEBUG=%ld has no effect on loom (libgomp's debug output does not exist "
             "here); LOOM_STATS and LOOM_TRACE show what the runtime did", level);
}

}  // namespace loom::omp
