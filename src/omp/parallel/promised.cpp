// Workers promised to the next region entered from a loom task (promised.hpp).
#include "parallel/promised.hpp"

#include <atomic>

#include "loom/ext/scheduler.hpp"
#include "parallel/claims.hpp"

namespace loom::omp {

namespace {
// Set while some thread holds promised workers or runs the region they form.
std::atomic<bool> g_task_region{false};
}  // namespace

void end_task_region(thread_state* th) {
    if (!th->holds_task_region) return;
    th->holds_task_region = false;
    g_task_region.store(false, std::memory_order_release);
}

void release_promised(thread_state* th, std::size_t used) {
    for (std::size_t i = used; i < th->promised_workers.size(); ++i)
        claims::release(static_cast<unsigned>(th->promised_workers[i]));
    th->promised_workers.clear();
}

// Worker 0 belongs to the initial thread (claims.cpp); a worker running a task is not
// idle, and one that took a task between the look and the claim is given back.
int promise_idle_workers(thread_state* th, int want) {
    release_promised(th);
    end_task_region(th);
    if (g_task_region.exchange(true, std::memory_order_acq_rel)) return 0;  // another's turn
    th->holds_task_region = true;
    const unsigned n = ext::worker_count();
    const int self = ext::current_worker();
    for (unsigned k = 1; k < n && static_cast<int>(th->promised_workers.size()) < want; ++k) {
        const unsigned w = (static_cast<unsigned>(self < 0 ? 0 : self) + k) % n;
        if (w == 0 || ext::worker_in_task(w) || !claims::try_claim(w)) continue;
        if (ext::worker_in_task(w)) {
            claims::release(w);
            continue;
        }
        th->promised_workers.push_back(static_cast<int>(w));
    }
    if (th->promised_workers.empty()) end_task_region(th);
    return static_cast<int>(th->promised_workers.size());
}

}  // namespace loom::omp
