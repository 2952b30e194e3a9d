// Why at load time and not on first use: hwloc_topology_init dlopens its plugins
// (hwloc_xml_libxml.so, hwloc_pci.so, ...), which needs glibc's load lock. Loaded lazily,
// that happened inside a pool start that holds loom's locks (OpenMP's life-cycle mutex,
// the machine description's static guard): a thread in dlopen running a constructor
// that enters OpenMP holds the load lock and waits for those locks, while the thread
// starting the pool holds them and waits for the load lock -- a deadlock
// (tests/omp/loader_race). In libloom's constructor the load lock is already this
// thread's (glibc's lock is recursive) and no other thread can be in loom yet; later,
// nothing in loom calls the loader while holding a lock of its own. Kept for the
// process: each init / destroy pair would dlopen and dlclose the plugins again.
#include "process_hwloc.hpp"

#include <atomic>

namespace loom::core {

namespace {

std::atomic<hwloc_topology_t> g_topology{nullptr};
std::atomic<bool> g_unavailable{false};

hwloc_topology_t load_topology() noexcept {
    hwloc_topology_t topo = nullptr;
    if (hwloc_topology_init(&topo) != 0) return nullptr;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return nullptr;
    }
    return topo;
}

// Static initialisers of other translation units may ask before the constructor ran:
// whoever loads first publishes; a loser's copy is destroyed (the plugins stay loaded,
// the winner's topology still holds them).
__attribute__((constructor)) void load_with_the_library() { process_hwloc(); }

}  // namespace

hwloc_topology_t process_hwloc() noexcept {
    if (hwloc_topology_t t = g_topology.load(std::memory_order_acquire)) return t;
    if (g_unavailable.load(std::memory_order_acquire)) return nullptr;
    hwloc_topology_t mine = load_topology();
    if (!mine) {
        g_unavailable.store(true, std::memory_order_release);
        return nullptr;
    }
    hwloc_topology_t expected = nullptr;
    if (g_topology.compare_exchange_strong(expected, mine, std::memory_order_acq_rel)) return mine;
    hwloc_topology_destroy(mine);
    return expected;
}

}  // namespace loom::core
