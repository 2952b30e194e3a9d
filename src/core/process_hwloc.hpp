// The process's one hwloc topology, loaded when libloom is loaded and kept.
#pragma once

#include <hwloc.h>

namespace loom::core {

/// The loaded topology (read-only: hwloc allows concurrent readers), or null when hwloc
/// could not load one (callers fall back to the affinity mask). Never destroyed.
hwloc_topology_t process_hwloc() noexcept;

}  // namespace loom::core
