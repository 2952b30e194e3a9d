#include "sync/wait_budget.hpp"

#include "env/icv.hpp"

namespace loom::omp {

namespace {

constexpr unsigned max_scale_log2 = 5;       // at most 32x the base budget
constexpr std::int64_t grow_within = 8;      // budgets: a wait this short wasted its sleep
constexpr std::int64_t shrink_beyond = 64;   // budgets: a wait this long was idle time

// Per thread: a thread's waits are alike (its team, its place in the loop), and a
// thread-local needs no synchronisation. A wait that resumes on another thread notes
// its outcome there, which only nudges that thread's estimate.
thread_local unsigned t_scale_log2 = 0;

}  // namespace

long wait_budget_us() noexcept {
    const long base = spin_budget_us();
    if (base <= 0 || spin_budget_fixed()) return base;
    return base << t_scale_log2;
}

void note_slept_wait(long budget_us, std::int64_t waited_ns) noexcept {
    if (budget_us <= 0 || spin_budget_fixed()) return;
    const std::int64_t budget_ns = static_cast<std::int64_t>(budget_us) * 1000;
    if (waited_ns < grow_within * budget_ns) {
        if (t_scale_log2 < max_scale_log2) ++t_scale_log2;
    } else if (waited_ns > shrink_beyond * budget_ns) {
        if (t_scale_log2 > 0) --t_scale_log2;
    }
}

}  // namespace loom::omp
