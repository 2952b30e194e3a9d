// The tool's side of the interface that the runtime's OMPT files share: the lookup
// function handed to the tool's initialize, and finalisation.
#pragma once

#include "omp-tools.h"

namespace loom::omp::ompt {

/// The lookup function (entry_points.cpp): an entry point by name, null if unknown.
ompt_interface_fn_t lookup(const char* name);
/// Calls the tool's finalize once (at exit, or from ompt_finalize_tool) after the end
/// events of the initial thread; no event is reported after it.
void finalize_tool() noexcept;

}  // namespace loom::omp::ompt
