// OMP_PLACES lists: abstract names with an optional count, explicit place lists with
// intervals and exclusions (OpenMP 5.2, 6.5), and the process's own CPU set.
#include <sched.h>

#include <algorithm>
#include <string>
#include <vector>

#include "env/env_text.hpp"
#include "env/places.hpp"
#include "loom/ext/machine.hpp"

namespace loom::omp {

namespace {
// On a simulated machine (ext::machine_is_simulated) nothing is bound: the mask a
// binding would have given the thread is kept here, and reported as its mask.
thread_local std::vector<int> t_simulated_mask;
}  // namespace

bool set_thread_mask(const std::vector<int>& cpus) {
    if (cpus.empty()) return false;
    if (ext::machine_is_simulated()) {
        t_simulated_mask = cpus;
        std::sort(t_simulated_mask.begin(), t_simulated_mask.end());
        return true;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}

std::vector<int> thread_cpus() {
    if (ext::machine_is_simulated()) {
        if (!t_simulated_mask.empty()) return t_simulated_mask;
        return available_cpus();
    }
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

// Read once, the first time asked, which is at the latest when the library is loaded
// (below), before anything of loom binds a thread: what the process may use stays what
// it was then (libomp's full mask, read at its start-up).
// The core's machine description is the one source (ext/machine.hpp): its usable
// processors, read at the same moment.
std::vector<int> available_cpus() {
    static const std::vector<int> cpus = [] {
        std::vector<int> v;
        for (const ext::cpu_position& p : ext::machine_cpus()) v.push_back(static_cast<int>(p.cpu));
        std::sort(v.begin(), v.end());
        if (v.empty()) v.push_back(0);
        return v;
    }();
    return cpus;
}

namespace {
[[maybe_unused]] const bool g_read_at_load = !available_cpus().empty();
}  // namespace

namespace {

// res-list interval "a", "a:len", "a:len:stride", "!a".
bool parse_res_interval(const std::string& text, std::vector<int>& out) {
    std::vector<std::string> f = split(trim(text), ':');
    long a, len = 1, st = 1;
    if (f.empty() || f.size() > 3 || !parse_int(f[0], 0, 1 << 20, a)) return false;
    if (f.size() > 1 && !parse_int(f[1], 1, 1 << 20, len)) return false;
    if (f.size() > 2 && !parse_int(f[2], -(1 << 20), 1 << 20, st)) return false;
    for (long i = 0; i < len; ++i) {
        long c = a + i * st;
        if (c < 0) return false;
        out.push_back(static_cast<int>(c));
    }
    return true;
}

bool parse_place(const std::string& text, std::vector<int>& out) {
    std::string s = trim(text);
    if (s.size() < 2 || s.front() != '{' || s.back() != '}') return false;
    std::vector<int> excluded;
    for (const std::string& part : split(s.substr(1, s.size() - 2), ',')) {
        std::string p = trim(part);
        if (!p.empty() && p[0] == '!') {
            if (!parse_res_interval(p.substr(1), excluded)) return false;
        } else if (!parse_res_interval(p, out)) {
            return false;
        }
    }
    std::erase_if(out, [&](int c) {
        return std::find(excluded.begin(), excluded.end(), c) != excluded.end();
    });
    return !out.empty();
}

}  // namespace

bool parse_places(const std::string& text, std::vector<std::vector<int>>& out) {
    std::string s = lower(trim(text));
    out.clear();
    if (s.empty()) return false;
    if (s[0] != '{' && s[0] != '!') {
        std::string name = s;
        long count = -1;
        std::size_t paren = s.find('(');
        if (paren != std::string::npos) {
            if (s.back() != ')') return false;
            name = trim(s.substr(0, paren));
            if (!parse_int(s.substr(paren + 1, s.size() - paren - 2), 1, 1 << 20, count))
                return false;
        }
        out = abstract_places(name, subset_cpus());
        if (out.empty()) return false;
        if (count > 0 && static_cast<std::size_t>(count) < out.size()) out.resize(count);
        return !out.empty();
    }
    // Explicit list: place[:len[:stride]] separated by commas outside braces.
    std::vector<std::string> items;
    int depth = 0;
    std::string cur;
    for (char c : s) {
        if (c == '{') ++depth;
        if (c == '}') --depth;
        if (depth < 0) return false;
        if (c == ',' && depth == 0) {
            items.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (depth != 0) return false;
    items.push_back(cur);
    for (const std::string& raw : items) {
        std::string item = trim(raw);
        // "!place" (OpenMP 5.2 place-interval): drops every place listed so far that
        // holds the same processors.
        if (!item.empty() && item[0] == '!') {
            std::vector<int> gone;
            if (!parse_place(item.substr(1), gone)) return false;
            std::sort(gone.begin(), gone.end());
            std::erase_if(out, [&](std::vector<int> p) {
                std::sort(p.begin(), p.end());
                return p == gone;
            });
            continue;
        }
        std::size_t close = item.find('}');
        if (close == std::string::npos) return false;
        std::vector<int> place;
        if (!parse_place(item.substr(0, close + 1), place)) return false;
        long len = 1, st = 1;
        std::string rest = item.substr(close + 1);
        if (!rest.empty()) {
            if (rest[0] != ':') return false;
            std::vector<std::string> f = split(rest.substr(1), ':');
            if (f.size() > 2 || !parse_int(f[0], 1, 1 << 20, len)) return false;
            if (f.size() > 1 && !parse_int(f[1], -(1 << 20), 1 << 20, st)) return false;
        }
        for (long i = 0; i < len; ++i) {
            std::vector<int> p;
            for (int c : place) {
                long x = c + i * st;
                if (x < 0) return false;
                p.push_back(static_cast<int>(x));
            }
            out.push_back(p);
        }
    }
    return !out.empty();
}

}  // namespace loom::omp
