// Runtime-level requests that the compiled code makes through an ABI entry point
// rather than an omp_* routine (routines.cpp).
#pragma once

namespace loom::omp {

/// thread_limit(limit) of a target construct run on the host: thread-limit-var of the
/// innermost explicit (target) task, or of the implicit task outside one. limit <= 0
/// changes nothing.
void set_target_thread_limit(int limit);
/// OMP_TARGET_OFFLOAD as libomp's kmp_target_offload_kind: 0 disabled, 1 default,
/// 2 mandatory.
int target_offload_kind();
/// omp_pause_resource_all(kind): 1 soft, 2 hard release the pool's workers (the next
/// region restarts it); -1 for any other kind.
int pause_resources(int kind);
/// omp_get_max_threads(); `program_asks` false for the runtime's own callers (they size
/// buffers by it), whose asking must not mark the thread as sizing its regions by it.
int max_threads(bool program_asks);

}  // namespace loom::omp
