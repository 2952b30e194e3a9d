// Workers promised to the next region entered from a loom task.
//
// A region entered from a loom task gets only idle workers (never more threads than
// workers), and libraries size their regions by omp_get_max_threads() just before they
// enter them; some need every member they ask for (OpenMP OpenBLAS's threads wait for
// one another: a smaller team never finishes). So in a loom task the routine claims the
// idle workers it announces, and the thread's next fork takes those claimed workers
// first: the team is as large as announced, whatever other tasks started meanwhile.
//
// One such region at a time gets more than its own thread: a worker promised to it may
// take another task before the member reaches its mailbox, and if that task entered a
// multi-thread region too it could wait for this one (OpenMP OpenBLAS serialises its
// threaded calls on one buffer, spinning) while this one waits for its member. Other
// tasks meanwhile get one thread, which they run on the worker they have anyway.
#pragma once

#include "parallel/thread.hpp"

namespace loom::omp {

/// Gives back the workers promised before, then claims up to `want` idle workers for
/// the thread's next region; returns how many it claimed.
int promise_idle_workers(thread_state* th, int want);
/// Gives back the promised workers the fork did not use (from index `used` on).
void release_promised(thread_state* th, std::size_t used = 0);
/// Ends the thread's turn as the one multi-thread region from tasks (after its join).
void end_task_region(thread_state* th);

}  // namespace loom::omp
