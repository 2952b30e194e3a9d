// The machine as the core sees it (hwloc), for the layers above it: one description of
// the processors, so that the OpenMP places, KMP_HW_SUBSET and the pool's worker
// placement never disagree, and a synthetic or XML topology reaches all of them.
//
// HWLOC_SYNTHETIC / HWLOC_XMLFILE (hwloc's own variables) replace the machine by a
// described one; unless HWLOC_THISSYSTEM=1 says it is this machine, loom then binds
// nothing (binding requests are computed and reported, not applied): a mode for
// checking placements and affinity strings of machines one does not have.
#pragma once

#include <vector>

#include "loom/ext/export.hpp"

namespace loom::ext {

/// One usable processor and where it sits. Indexes are dense, in machine order
/// (0, 1, ... over the usable processors): `core` counts cores machine-wide, `thread`
/// is the position within its core.
struct cpu_position {
    unsigned cpu = 0;     // OS processor id
    unsigned socket = 0;
    unsigned numa = 0;    // NUMA domain
    unsigned llc = 0;     // last-level cache (the socket when hwloc knows no cache)
    unsigned core = 0;
    unsigned thread = 0;
};

/// The processors this process may use, in socket, core, thread order: the affinity
/// mask at first call on a real machine, every processor of a simulated one.
LOOM_EXPORT const std::vector<cpu_position>& machine_cpus();

/// True when the topology is simulated (see above): nothing is bound.
LOOM_EXPORT bool machine_is_simulated() noexcept;

}  // namespace loom::ext
