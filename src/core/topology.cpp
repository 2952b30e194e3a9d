#include "topology.hpp"

#include <hwloc.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <string>

#include "config.hpp"
#include "machine.hpp"
#include "process_hwloc.hpp"

namespace loom::core {

struct topology::hw {
    hwloc_topology_t topo = nullptr;      // the process's (process_hwloc), not owned
    std::vector<hwloc_obj_t> place_objs;  // one per distinct place, may be null
};

namespace {

// The CPUs the last topology was built from (the process's mask before any worker was
// bound), and whether the calling thread has been bound since. A fork child starts with
// the forking thread's mask; if loom bound that thread, the child gets the unbound mask
// back, as libomp's fork handler does, so that nproc and the child's own pools see the
// whole process and not one place.
cpu_set_t g_unbound_mask;
bool g_unbound_known = false;
thread_local bool t_bound = false;

void unbind_in_fork_child() noexcept {
    if (t_bound && g_unbound_known) sched_setaffinity(0, sizeof g_unbound_mask, &g_unbound_mask);
    t_bound = false;
}

void remember_unbound_mask(const std::vector<unsigned>& cpus) {
    static const bool registered = pthread_atfork(nullptr, nullptr, unbind_in_fork_child) == 0;
    (void)registered;
    CPU_ZERO(&g_unbound_mask);
    for (unsigned c : cpus)
        if (c < CPU_SETSIZE) CPU_SET(c, &g_unbound_mask);
    g_unbound_known = true;
}

// The calling thread's mask, read anew for every pool (a fork child, a mask the
// program changed between pools); every processor of a simulated machine.
std::vector<unsigned> allowed_cpus() {
    return the_machine().simulated ? usable_machine_cpus() : affinity_mask_cpus();
}

bool allowed(const std::vector<unsigned>& cpus, unsigned id) {
    return std::binary_search(cpus.begin(), cpus.end(), id);
}

// Places are whole cores when there are at least as many cores as workers, single
// processing units otherwise (then two workers may share a core, never a PU, until
// the PUs run out and places wrap around).
std::vector<hwloc_obj_t> candidate_objs(hwloc_topology_t topo, const std::vector<unsigned>& cpus,
                                        unsigned workers) {
    std::vector<hwloc_obj_t> cores, pus;
    for (hwloc_obj_type_t type : {HWLOC_OBJ_CORE, HWLOC_OBJ_PU}) {
        auto& out = type == HWLOC_OBJ_CORE ? cores : pus;
        int n = hwloc_get_nbobjs_by_type(topo, type);
        for (int i = 0; i < n; ++i) {
            hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, static_cast<unsigned>(i));
            unsigned id;
            hwloc_bitmap_foreach_begin(id, o->cpuset) {
                if (allowed(cpus, id)) {
                    out.push_back(o);
                    break;
                }
            }
            hwloc_bitmap_foreach_end();
        }
    }
    return cores.size() >= workers || pus.empty() ? cores : pus;
}

std::vector<unsigned> cpus_of(hwloc_obj_t o, const std::vector<unsigned>& cpus) {
    std::vector<unsigned> out;
    unsigned id;
    hwloc_bitmap_foreach_begin(id, o->cpuset) {
        if (allowed(cpus, id)) out.push_back(id);
    }
    hwloc_bitmap_foreach_end();
    return out;
}

// The NUMA node holding `o`'s first processor (hwloc 2 keeps NUMA nodes beside the
// processor tree, so they are found by cpuset), or -1.
int numa_index(hwloc_topology_t topo, hwloc_obj_t o) {
    const int first = hwloc_bitmap_first(o->cpuset);
    if (first < 0) return -1;
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
        if (node->cpuset && hwloc_bitmap_isset(node->cpuset, static_cast<unsigned>(first))) return i;
    }
    return -1;
}

// LOOM_MAPPING: compact (default) fills the places in machine order, so W workers on a
// machine of more cores all sit in the first NUMA domains; numa-balanced gives each
// NUMA domain an equal share (the first W mod D domains one more), workers numbered
// domain by domain, each share the first places of its domain: the memory bandwidth
// of every domain is used and a worker's nearest victims stay in its domain.
bool numa_balanced_requested() {
    const char* raw = std::getenv("LOOM_MAPPING");
    if (!raw) return false;
    std::string v;
    for (const char* c = raw; *c; ++c) v += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
    if (v == "numa-balanced" || v == "numa_balanced") return true;
    if (v != "compact") warn_bad_value("LOOM_MAPPING", raw, "is not compact or numa-balanced", "compact");
    return false;
}

std::vector<hwloc_obj_t> numa_balanced(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& objs,
                                       unsigned workers) {
    std::vector<int> domains;
    std::vector<std::vector<hwloc_obj_t>> by_domain;
    for (hwloc_obj_t o : objs) {
        const int d = numa_index(topo, o);
        auto it = std::find(domains.begin(), domains.end(), d);
        if (it == domains.end()) {
            domains.push_back(d);
            by_domain.emplace_back();
            it = domains.end() - 1;
        }
        by_domain[static_cast<std::size_t>(it - domains.begin())].push_back(o);
    }
    const std::size_t n = by_domain.size();
    if (n <= 1 || workers >= objs.size()) return objs;  // nothing to balance
    std::vector<hwloc_obj_t> out;
    for (std::size_t d = 0; d < n; ++d) {
        std::size_t share = workers / n + (d < workers % n ? 1 : 0);
        share = std::min(share, by_domain[d].size());
        out.insert(out.end(), by_domain[d].begin(), by_domain[d].begin() + static_cast<long>(share));
    }
    // A domain smaller than its share leaves workers over: the remaining places follow.
    for (hwloc_obj_t o : objs)
        if (out.size() < workers && std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    return out;
}

// Depth of the deepest common ancestor: larger means nearer.
int closeness(hwloc_topology_t topo, hwloc_obj_t a, hwloc_obj_t b) {
    if (!a || !b) return 0;
    if (a == b) return 1 << 20;
    hwloc_obj_t common = hwloc_get_common_ancestor_obj(topo, a, b);
    return common ? common->depth : 0;
}

}  // namespace

topology::topology(unsigned workers) : topology(workers, allowed_cpus()) { remember_unbound_mask(cpus_); }

topology::topology(unsigned workers, std::vector<unsigned> cpus_in)
    : hw_(std::make_unique<hw>()), cpus_(std::move(cpus_in)) {
    if (cpus_.empty()) cpus_.push_back(0);
    const std::vector<unsigned>& cpus = cpus_;
    std::vector<hwloc_obj_t> objs;
    hw_->topo = process_hwloc();
    if (hw_->topo) {
        objs = candidate_objs(hw_->topo, cpus, workers);
        if (numa_balanced_requested()) objs = numa_balanced(hw_->topo, objs, workers);
    }
    places_.resize(workers);
    hw_->place_objs.assign(workers, nullptr);
    for (unsigned w = 0; w < workers; ++w) {
        if (!objs.empty()) {
            hw_->place_objs[w] = objs[w % objs.size()];
            places_[w] = cpus_of(hw_->place_objs[w], cpus);
        } else {
            places_[w] = {cpus[w % cpus.size()]};
        }
    }
    victims_.resize(workers);
    for (unsigned w = 0; w < workers; ++w) {
        auto& v = victims_[w];
        for (unsigned o = 1; o < workers; ++o) v.push_back((w + o) % workers);
        // Nearest first; among equals, the order in which they follow w.
        auto distance_after_w = [&](unsigned x) { return (x + workers - w) % workers; };
        std::sort(v.begin(), v.end(), [&](unsigned a, unsigned b) {
            int ca = closeness(hw_->topo, hw_->place_objs[w], hw_->place_objs[a]);
            int cb = closeness(hw_->topo, hw_->place_objs[w], hw_->place_objs[b]);
            return ca != cb ? ca > cb : distance_after_w(a) < distance_after_w(b);
        });
    }
}

topology::~topology() = default;

bool topology::bind_current_thread(unsigned worker) const {
    const auto& place = places_.at(worker);
    if (the_machine().simulated) return true;  // computed and reported, never applied
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned c : place) CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) return false;
    t_bound = true;
    return true;
}

}  // namespace loom::core
