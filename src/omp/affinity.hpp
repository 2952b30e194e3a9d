// Places (OMP_PLACES) and the affinity format (OMP_AFFINITY_FORMAT,
// OMP_DISPLAY_AFFINITY, omp_*_affinity*).
#pragma once

#include <string>

namespace loom::omp {

struct implicit_task;

/// Expands an affinity format for the calling thread running `it`.
std::string format_affinity(const char* fmt, implicit_task* it);
/// Prints the affinity line of the calling thread at the start of an implicit task if
/// OMP_DISPLAY_AFFINITY is on and the thread's team shape changed since the last one.
void maybe_display_affinity(implicit_task* it);

}  // namespace loom::omp
