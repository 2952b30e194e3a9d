// Which workers are held by OpenMP teams. A team member runs on its own worker for the
// whole region (gang); a region claims the workers its members run on, so regions
// entered concurrently (from loom tasks or foreign threads) never share a worker and
// the process never runs more team members than workers.
#pragma once

namespace loom::omp::claims {

inline constexpr unsigned max_workers = 1024;

/// Claims worker `w`; false if another team holds it.
bool try_claim(unsigned w) noexcept;
/// Claims some free worker other than 0, starting the search at `prefer`; -1 if none.
int claim_any(unsigned prefer, unsigned nworkers) noexcept;
void release(unsigned w) noexcept;
/// True if no worker is claimed.
bool none_claimed() noexcept;
/// Forgets every claim (after fork(), and when the pool is rebuilt).
void reset() noexcept;

}  // namespace loom::omp::claims
