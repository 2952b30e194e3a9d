// Thread affinity (OpenMP 5.2, 10.1.3 "Controlling OpenMP Thread Affinity"): which
// place and place partition each implicit task gets from its team's proc-bind policy,
// and binding the OS thread that runs it to that place.
#pragma once

#include <vector>

namespace loom::omp {

struct implicit_task;

/// The place list (OMP_PLACES, KMP_AFFINITY granularity, KMP_HW_SUBSET; without any,
/// one place holding every usable processor).
const std::vector<std::vector<int>>& place_list();

/// A task's place (-1: none) and its place partition: `count` places from `first`
/// on, wrapping around the place list.
struct place_assignment {
    int place = -1;
    int first = 0;
    int count = 0;
};
place_assignment assignment_of(implicit_task* it);

/// Binds the calling thread to `it`'s place if its team binds threads (a proc-bind
/// policy other than false and places set by the user); a no-op when it is already.
void bind_for_task(implicit_task* it);
/// Whether the scheduler binds its threads: 1 when the user asked for binding
/// (OMP_PROC_BIND other than false, OMP_PLACES, a KMP_AFFINITY type, GOMP_CPU_AFFINITY);
/// -1 otherwise, leaving it to LOOM_PIN (default: nothing is bound). For
/// ext::pool_options::pin_workers.
int scheduler_pinning();
/// After an outermost region's join, on its primary thread: KMP_AFFINITY=reset gives
/// the thread back the processors the process started with.
void end_outer_region();

}  // namespace loom::omp
