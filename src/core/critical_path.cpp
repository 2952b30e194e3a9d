// Automatic critical-path priority for dependent tasks (LOOM_CRITICAL_PATH=1).
//
// A dependent task's place on the critical path is its longest path to the end of
// the graph, which is not known while the graph is still being made. What is known
// when the task becomes ready is how many tasks wait for it: a task that many others
// wait for is where the graph narrows (a Cholesky panel, a LU pivot column, the
// head of a fork), and running it first is what critical-path schedulers do with a
// tile algorithm's panel tasks. So a ready task with at least two successors and at
// least twice the recent mean goes to the high-priority queue at a level that grows
// with its successor count; the rest stays normal. A uniform graph (a stencil, where
// every task has the same fan-out) gets no high tasks at all, so it pays nothing.
//
// Starvation and livelock: priorities reorder ready tasks only; the core bounds how
// many high tasks a worker runs in a row while it has normal work (worker::try_get).
#include <algorithm>
#include <atomic>

#include "config.hpp"
#include "loom/ext/scheduler.hpp"

namespace loom::ext {

namespace {
// The mean number of successors of ranked tasks, x16 (fixed point), as an
// exponentially weighted mean with weight 1/16 per task. A lost update between two
// racing threads only delays the mean by one task: relaxed loads and stores.
std::atomic<unsigned> g_mean_x16{16};
}  // namespace

bool critical_path_enabled() noexcept {
    static const bool on = core::resolve_switch("LOOM_CRITICAL_PATH", false);
    return on;
}

unsigned critical_level(unsigned successors) noexcept {
    const unsigned mean_x16 = g_mean_x16.load(std::memory_order_relaxed);
    const unsigned n = std::min(successors, 4096u);
    g_mean_x16.store(mean_x16 - mean_x16 / 16 + n, std::memory_order_relaxed);
    if (n < 2 || n * 16 < 2 * mean_x16) return 0;
    return std::min(n, 255u);
}

}  // namespace loom::ext
