// The process-wide machine description behind ext/machine.hpp, read once.
#pragma once

#include <vector>

#include "loom/ext/machine.hpp"

namespace loom::core {

struct machine_view {
    std::vector<ext::cpu_position> cpus;  // usable processors, machine order
    bool simulated = false;               // HWLOC_SYNTHETIC / HWLOC_XMLFILE: bind nothing
};

/// Loaded on first use: the affinity mask of the thread that asks first (the process's
/// mask, before any binding) on a real machine.
const machine_view& the_machine();

/// The calling thread's affinity mask as OS processor ids, increasing ({0} if it
/// cannot be read).
std::vector<unsigned> affinity_mask_cpus();

/// The usable processors' OS ids, increasing.
std::vector<unsigned> usable_machine_cpus();

}  // namespace loom::core
