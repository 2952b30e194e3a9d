// Pool life cycle seen from the OpenMP layer: lazy start, growth at top level,
// omp_pause_resource, and rebuilding after fork().
#pragma once

#include <cstddef>

namespace loom::omp {

/// Starts the pool if it is not running (first region, after a pause, in a fork()
/// child). Cheap when it runs.
void ensure_pool();
/// Number of workers of the running pool (starts it if needed).
int pool_size();
/// nthreads-var where OMP_NUM_THREADS does not set it: the pool's size when it started
/// (starts it if needed). Not its size now: a region that grew the pool to the team its
/// num_threads clause asked for does not change the ICV (libgomp and libomp keep it).
int default_nthreads_var();
/// Grows the running pool to at least `n` workers (within the thread limit and an
/// earlier refusal); the workers that exist keep running. Returns the pool size after.
int try_grow_pool(int n);
/// Grows the running pool by `more` workers over its size at the time of the call.
int grow_pool_by(int more);
/// Releases the workers (omp_pause_resource); 0 on success, non-zero when called from
/// a region or a loom task, or while other threads run regions.
int pause_pool();
/// Brackets every region (fork_region): a pause or pool rebuild waits for no region
/// to be in flight, and regions wait while one is in progress.
void enter_region() noexcept;
void leave_region() noexcept;
/// True once the process runs its exit-time destructors: members lingering without a
/// spin budget (KMP_BLOCKTIME=infinite) retire then, or the scheduler's shutdown would
/// wait for them forever.
bool process_exiting() noexcept;
/// CPUs the process may use, as its affinity mask said before the first pool started.
std::size_t process_cpu_count();
/// Regions being forked or run by any thread (this one's included).
int regions_in_flight() noexcept;

}  // namespace loom::omp
