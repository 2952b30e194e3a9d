// Topology for OpenMP places (the core's hwloc description), KMP_HW_SUBSET and the
// abstract place lists.
#include "env/places.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "env/env.hpp"
#include "env/env_text.hpp"
#include "loom/ext/machine.hpp"

namespace loom::omp {

namespace {

// Usable CPUs numbered by socket, core and thread: the core's description.
std::vector<cpu_info> machine_cpus() {
    std::vector<cpu_info> out;
    for (const ext::cpu_position& p : ext::machine_cpus()) {
        cpu_info ci;
        ci.cpu = static_cast<int>(p.cpu);
        ci.socket = static_cast<int>(p.socket);
        ci.core = static_cast<int>(p.core);
        ci.thread = static_cast<int>(p.thread);
        ci.numa = static_cast<int>(p.numa);
        ci.llc = static_cast<int>(p.llc);
        out.push_back(ci);
    }
    return out;
}

enum layer { socket_layer = 0, core_layer = 1, thread_layer = 2, machine_layer = -1 };

struct subset_item {
    layer which;
    int count;
    int offset;
};

bool parse_layer(const std::string& name, layer& out) {
    if (name == "s" || name == "socket" || name == "sockets" || name == "package") out = socket_layer;
    else if (name == "c" || name == "core" || name == "cores") out = core_layer;
    else if (name == "t" || name == "thread" || name == "threads") out = thread_layer;
    else return false;
    return true;
}

// "N<layer>[@offset]"
bool parse_subset_item(const std::string& text, subset_item& item) {
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == 0 || i > 6) return false;
    item.count = std::atoi(text.substr(0, i).c_str());
    std::size_t at = text.find('@', i);
    std::string name = text.substr(i, at == std::string::npos ? std::string::npos : at - i);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (item.count <= 0 || !parse_layer(name, item.which)) return false;
    item.offset = 0;
    if (at != std::string::npos) {
        std::string off = text.substr(at + 1);
        if (off.empty() || off.size() > 6 ||
            !std::all_of(off.begin(), off.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return false;
        item.offset = std::atoi(off.c_str());
    }
    return true;
}

// The object of `l` holding `c`, as a key that also names its ancestors.
std::tuple<int, int, int> key_at(const cpu_info& c, int l) {
    if (l == machine_layer) return {-1, -1, -1};
    if (l == socket_layer) return {c.socket, -1, -1};
    if (l == core_layer) return {c.socket, c.core, -1};
    return {c.socket, c.core, c.thread};
}

// Position of c's object of layer `l` among the objects of that layer inside c's
// object of layer `scope`.
int rank_within(const std::vector<cpu_info>& cpus, const cpu_info& c, int l, int scope) {
    std::vector<std::tuple<int, int, int>> seen;
    for (const cpu_info& o : cpus) {
        if (key_at(o, scope) != key_at(c, scope)) continue;
        auto k = key_at(o, l);
        if (std::find(seen.begin(), seen.end(), k) == seen.end()) seen.push_back(k);
    }
    return static_cast<int>(std::find(seen.begin(), seen.end(), key_at(c, l)) - seen.begin());
}

}  // namespace

bool apply_hw_subset(const std::string& raw, std::vector<cpu_info>& cpus) {
    std::string text;
    for (char c : raw)
        if (!std::isspace(static_cast<unsigned char>(c))) text += c;
    const bool absolute = !text.empty() && text[0] == ':';
    if (absolute) text.erase(0, 1);
    if (text.empty()) return false;
    subset_item items[3];
    bool given[3] = {false, false, false};
    std::size_t start = 0;
    for (;;) {
        std::size_t comma = text.find(',', start);
        subset_item it;
        if (!parse_subset_item(text.substr(start, comma - start), it) || given[it.which]) return false;
        items[it.which] = it;
        given[it.which] = true;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    std::vector<cpu_info> kept;
    for (const cpu_info& c : cpus) {
        bool keep = true;
        for (int l = socket_layer; l <= thread_layer && keep; ++l) {
            if (!given[l]) continue;
            int scope = l - 1;
            if (absolute)
                while (scope >= socket_layer && !given[scope]) --scope;
            int r = rank_within(cpus, c, l, scope);
            keep = r >= items[l].offset && r < items[l].offset + items[l].count;
        }
        if (keep) kept.push_back(c);
    }
    if (kept.empty()) return false;
    cpus = kept;
    return true;
}

const std::vector<cpu_info>& subset_cpus() {
    static const std::vector<cpu_info>* cpus = [] {
        auto* v = new std::vector<cpu_info>(machine_cpus());
        const char* s = env_value("KMP_HW_SUBSET");
        if (s && !apply_hw_subset(s, *v))
            warn("KMP_HW_SUBSET='%s' is not a list of N<s|c|t>[@offset] that selects some "
                 "processors; using all of them instead", s);
        return v;
    }();
    return *cpus;
}

std::vector<std::vector<int>> abstract_places(const std::string& name,
                                              const std::vector<cpu_info>& cpus) {
    int (*key)(const cpu_info&) = nullptr;
    if (name == "threads") key = [](const cpu_info& c) { return c.cpu; };
    else if (name == "cores") key = [](const cpu_info& c) { return c.core; };
    else if (name == "sockets") key = [](const cpu_info& c) { return c.socket; };
    // Without cache information (hwloc found none) each socket counts as one.
    else if (name == "ll_caches") key = [](const cpu_info& c) { return c.llc; };
    else if (name == "numa_domains") key = [](const cpu_info& c) { return c.numa; };
    else return {};
    std::vector<std::vector<int>> out;
    std::map<int, std::size_t> index;
    for (const cpu_info& c : cpus) {
        auto [pos, fresh] = index.emplace(key(c), out.size());
        if (fresh) out.emplace_back();
        out[pos->second].push_back(c.cpu);
    }
    return out;
}

kmp_affinity_settings& kmp_affinity() {
    static kmp_affinity_settings s;
    return s;
}

}  // namespace loom::omp
