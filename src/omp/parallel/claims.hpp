// Which workers are held by OpenMP teams. A team member runs on its own worker for the
// whole region (gang); a region claims the workers its members run on, so regions
// entered concurrently (from loom tasks or foreign threads) never share a worker and
// the process never runs more team members than workers.
#pragma once

namespace loom::omp::claims {

// The documented team-size limit (docs/configuration.md, as core's LOOM_NUM_THREADS
// bound and libomp's KMP_MAX_NTH default of 4096 on 64-bit Linux).
inline constexpr unsigned max_workers = 4096;

/// Claims worker `w`; false if another team holds it.
bool try_claim(unsigned w) noexcept;
/// Claims some free worker other than 0, starting the search at `prefer`; -1 if none.
int claim_any(unsigned prefer, unsigned nworkers) noexcept;
void release(unsigned w) noexcept;
/// True if no worker is claimed.
bool none_claimed() noexcept;
/// Number of workers 0..nworkers-1 claimed now (a snapshot: claims come and go).
int claimed_count(unsigned nworkers) noexcept;
/// Forgets every claim (after fork(), and when the pool is rebuilt).
void reset() noexcept;

// A member that lingers after its region (fork.cpp) keeps its worker's claim, for its
// team's next region. A region that finds too few free workers while some member
// lingers asks, through a process-wide demand count, that lingering members give
// their workers back; they retire unless their own team reserved them meanwhile.

/// Marks worker `w`'s member as lingering (its own cache line: no sharing).
void set_lingering(unsigned w, bool lingering) noexcept;
/// True if a member lingers on worker `w`.
bool lingering(unsigned w) noexcept;
/// True if a member lingers on one of workers 1..nworkers-1.
bool any_lingering(unsigned nworkers) noexcept;
/// Raises (true) or lowers (false) the demand for workers.
void want_workers(bool want) noexcept;
/// True while some region waits for workers that lingering members hold.
bool workers_wanted() noexcept;

}  // namespace loom::omp::claims
