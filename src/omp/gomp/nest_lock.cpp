// libgomp's OpenMP 3.0 nest locks (omp_{set,unset,test}_nest_lock@OMP_3.0): owned by
// the task that set them, as OpenMP 3.0 and later specify. A nest lock set by an
// implicit task is not held by an explicit task or by the implicit task of a nested
// `parallel if(0)` on the same thread: testing it there fails (libgomp: lock.c keeps
// the owning task; its testsuite checks this in lock-1.c / lock-2.c). The OMP_1.0
// versions (OpenMP 2.5 binaries) and clang's (libomp.so.5's, which owns nest locks by
// thread) keep the thread as owner (sync/lock.cpp). gomp/versions.cpp points the
// OMP_3.0 aliases here, the Fortran ones (omp_*_nest_lock_@OMP_3.0, which libgomp's
// fortran.c maps onto the 3.0 routines; libgomp.fortran/lock-1.f90, lock-2.f90) too.
#include <cstdint>

#include "loom/ext/export.hpp"
#include "ompt/events.hpp"
#include "sync/lock.hpp"
#include "tasking/task.hpp"

namespace {

// The running task: the explicit task's node, or the implicit task's. Unique among
// live tasks; a task ends only after it released what it holds (else the program is
// non-conforming, as with a thread that exits holding a lock).
std::uintptr_t task_owner_id() {
    const loom::omp::tasking::here h = loom::omp::tasking::current_here();
    return reinterpret_cast<std::uintptr_t>(loom::omp::tasking::current_node(h));
}

}  // namespace

// Local names: only the @OMP_3.0 aliases of gomp/versions.cpp export them.
extern "C" {

// With a tool active, the twins of ompt/lock_events.cpp report the lock's events.
void loom_gomp30_omp_set_nest_lock(void* lk) {
    if (loom::omp::ompt::on()) [[unlikely]] {
        (void)loom::omp::ompt::nest_lock_set_traced(lk, "omp_set_nest_lock", task_owner_id(), LOOM_OMPT_RA);
        return;
    }
    (void)loom::omp::nest_lock_set(lk, "omp_set_nest_lock", task_owner_id());
}

void loom_gomp30_omp_unset_nest_lock(void* lk) {
    if (loom::omp::ompt::on()) [[unlikely]] {
        loom::omp::ompt::nest_lock_unset_traced(lk, "omp_unset_nest_lock", task_owner_id(), LOOM_OMPT_RA);
        return;
    }
    (void)loom::omp::nest_lock_unset(lk, "omp_unset_nest_lock", task_owner_id());
}

int loom_gomp30_omp_test_nest_lock(void* lk) {
    if (loom::omp::ompt::on()) [[unlikely]]
        return loom::omp::ompt::nest_lock_test_traced(lk, "omp_test_nest_lock", task_owner_id(), LOOM_OMPT_RA);
    return loom::omp::nest_lock_test(lk, "omp_test_nest_lock", task_owner_id());
}

// Fortran: the lock variable (integer(omp_nest_lock_kind), 8 bytes) holds loom's nest
// lock word itself, as the C object's first 8 bytes do (sync/lock.hpp).
void loom_gomp30_omp_set_nest_lock_(void* lk) { loom_gomp30_omp_set_nest_lock(lk); }
void loom_gomp30_omp_unset_nest_lock_(void* lk) { loom_gomp30_omp_unset_nest_lock(lk); }
std::int32_t loom_gomp30_omp_test_nest_lock_(void* lk) { return loom_gomp30_omp_test_nest_lock(lk); }

}  // extern "C"
