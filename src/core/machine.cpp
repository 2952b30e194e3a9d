// The process-wide machine description (ext/machine.hpp), from one hwloc load.
#include "loom/ext/machine.hpp"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "machine.hpp"
#include "process_hwloc.hpp"

namespace loom::core {

std::vector<unsigned> affinity_mask_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<unsigned> cpus;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (unsigned c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
    if (cpus.empty()) cpus.push_back(0);
    return cpus;
}

namespace {

// Logical index of the ancestor of `o` of `type`, or -1.
int ancestor_index(hwloc_topology_t topo, hwloc_obj_t o, hwloc_obj_type_t type) {
    hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(topo, type, o);
    return a ? static_cast<int>(a->logical_index) : -1;
}

// The outermost cache above `o` (the last level), or -1.
int last_level_cache(hwloc_obj_t o) {
    int found = -1;
    for (hwloc_obj_t a = o->parent; a; a = a->parent)
        if (hwloc_obj_type_is_cache(a->type)) found = static_cast<int>(a->logical_index) + 1000000 * a->depth;
    return found;
}

int numa_of(hwloc_topology_t topo, hwloc_obj_t pu) {
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
        if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index)) return i;
    }
    return 0;
}

// Renumbers keys densely in the order they first appear.
class dense {
public:
    unsigned operator()(long long key) { return map_.try_emplace(key, static_cast<unsigned>(map_.size())).first->second; }

private:
    std::map<long long, unsigned> map_;
};

machine_view load() {
    machine_view m;
    hwloc_topology_t topo = process_hwloc();
    if (!topo) {
        for (unsigned c : affinity_mask_cpus()) m.cpus.push_back({c, 0, 0, 0, c, 0});
        dense cores;
        for (auto& p : m.cpus) p.core = cores(p.cpu);
        return m;
    }
    m.simulated = hwloc_topology_is_thissystem(topo) == 0;
    const std::vector<unsigned> mask = m.simulated ? std::vector<unsigned>{} : affinity_mask_cpus();
    dense sockets, numas, llcs, cores;
    std::map<unsigned, unsigned> threads_in_core;
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    for (int i = 0; i < n; ++i) {  // logical order: socket, core, thread
        hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, static_cast<unsigned>(i));
        if (!m.simulated && !std::binary_search(mask.begin(), mask.end(), pu->os_index)) continue;
        ext::cpu_position p;
        p.cpu = pu->os_index;
        const int pkg = ancestor_index(topo, pu, HWLOC_OBJ_PACKAGE);
        p.socket = sockets(pkg);
        p.numa = numas(numa_of(topo, pu));
        const int llc = last_level_cache(pu);
        p.llc = llcs(llc >= 0 ? llc : -1 - pkg);
        const int core = ancestor_index(topo, pu, HWLOC_OBJ_CORE);
        p.core = cores(core >= 0 ? core : -1 - i);
        p.thread = threads_in_core[p.core]++;
        m.cpus.push_back(p);
    }
    if (m.cpus.empty())
        for (unsigned c : affinity_mask_cpus()) m.cpus.push_back({c, 0, 0, 0, static_cast<unsigned>(m.cpus.size()), 0});
    return m;
}

}  // namespace

const machine_view& the_machine() {
    static const machine_view* m = new machine_view(load());
    return *m;
}

std::vector<unsigned> usable_machine_cpus() {
    std::vector<unsigned> out;
    for (const auto& p : the_machine().cpus) out.push_back(p.cpu);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace loom::core

namespace loom::ext {

const std::vector<cpu_position>& machine_cpus() { return core::the_machine().cpus; }

bool machine_is_simulated() noexcept { return core::the_machine().simulated; }

}  // namespace loom::ext
