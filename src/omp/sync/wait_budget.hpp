// How long an OpenMP wait (barrier, join, reduction, doacross) spins before it sleeps,
// when nothing fixed it (KMP_BLOCKTIME, OMP_WAIT_POLICY, GOMP_SPINCOUNT,
// kmp_set_blocktime). The scheduler's budget (LOOM_SPIN_US, 100 us) alone is shorter
// than a futex wake-up on many virtual machines (0.1-1 ms): once one member of a team
// slept, it reached the next barrier that late, the others' spins ran out and they
// slept too, and every barrier then cost a wake-up -- 125-450 us per barrier at 16
// threads instead of 4 (EPCC syncbench, docs/scaling.md). So each thread scales the
// budget by what its own waits that slept showed: a wait that ended soon after its
// spin (within 8 budgets) doubles it, up to 32x; one that lasted over 64 budgets
// halves it. Spinning for a while longer than a wake-up takes ends the cascade, and a
// program that really idles at its waits comes back to the short budget.
#pragma once
#include <cstdint>

namespace loom::omp {

/// The spin budget of the calling thread's next wait, in microseconds (-1: spin only,
/// 0: sleep at once).
long wait_budget_us() noexcept;

/// A wait with spin budget `budget_us` slept and ended `waited_ns` after it began.
void note_slept_wait(long budget_us, std::int64_t waited_ns) noexcept;

}  // namespace loom::omp
