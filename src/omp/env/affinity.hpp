// The affinity format (OMP_AFFINITY_FORMAT,
// OMP_DISPLAY_AFFINITY, omp_*_affinity*).
#pragma once

#include <string>

namespace loom::omp {

struct implicit_task;

/// Expands an affinity format for the calling thread running `it`.
std::string format_affinity(const char* fmt, implicit_task* it);
/// At the start of an implicit task: binds the calling thread to the task's place
/// (bind.hpp), then prints its affinity line if OMP_DISPLAY_AFFINITY is on and the
/// thread's team or place changed since its last line.
void begin_implicit_task(implicit_task* it);

}  // namespace loom::omp
