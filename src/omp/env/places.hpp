// The machine as OpenMP places see it: the CPUs this process may use with their socket,
// core and hardware-thread numbers (the core's hwloc description, ext/machine.hpp),
// restricted by KMP_HW_SUBSET, and the
// abstract place lists (threads, cores, sockets, ...) built from them. Also the
// KMP_AFFINITY settings that decide places and binding when OMP_PLACES is not set.
#pragma once

#include <string>
#include <vector>

namespace loom::omp {

/// One usable CPU: its OS id and its position in the socket / core / thread tree.
struct cpu_info {
    int cpu = 0;
    int socket = 0;   // index of its socket (0, 1, ...)
    int core = 0;     // index of its core within the machine
    int thread = 0;   // index within its core
    int numa = 0;     // NUMA domain index
    int llc = 0;      // last-level cache index
};

/// The usable CPUs in socket, core, thread order, after KMP_HW_SUBSET (parsed on the
/// first call; a malformed value warns once and is ignored).
const std::vector<cpu_info>& subset_cpus();

/// Places of an abstract name (threads, cores, ll_caches, numa_domains, sockets) over
/// `cpus`; empty if the name is unknown.
std::vector<std::vector<int>> abstract_places(const std::string& name,
                                              const std::vector<cpu_info>& cpus);

/// Restricts `cpus` by a KMP_HW_SUBSET value ("[:]N<layer>[@offset],..." with layers
/// s/socket, c/core, t/thread; ':' counts each layer within the nearest layer named
/// above it instead of its direct parent). Returns false, leaving `cpus`, if malformed.
bool apply_hw_subset(const std::string& text, std::vector<cpu_info>& cpus);

/// Parses an OMP_PLACES value; returns false if malformed (place_syntax.cpp).
bool parse_places(const std::string& text, std::vector<std::vector<int>>& out);
/// The CPUs the calling thread may run on (its affinity mask), in increasing order;
/// empty if the mask cannot be read. On a simulated machine: the mask its last
/// binding would have set (else every processor).
std::vector<int> thread_cpus();
/// Binds the calling thread to `cpus` (on a simulated machine: records the mask
/// only). False if empty or the OS refused.
bool set_thread_mask(const std::vector<int>& cpus);
/// The CPUs this process may run on, in increasing order: the mask of the thread that
/// loaded the library, read at load, before loom binds any thread; {0} if it cannot be
/// read.
std::vector<int> available_cpus();

/// What KMP_AFFINITY asked for (env.cpp fills it while parsing the environment).
struct kmp_affinity_settings {
    bool set = false;            // a binding type (compact, scatter, ...) was given
    bool disabled = false;       // none / disabled
    bool reset = false;          // restore the primary thread's mask after a region
    bool verbose = false;
    std::string granularity;     // abstract place name; empty = cores
    std::vector<int> initial_mask;  // the processors at start-up (for reset)
};
kmp_affinity_settings& kmp_affinity();

}  // namespace loom::omp
