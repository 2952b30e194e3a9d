// GOMP cancellation (libgomp parallel.c GOMP_cancel / GOMP_cancellation_point): gcc's
// GOMP_CANCEL_* bit of the construct onto kmpc's cancellation kinds.
#include "gomp/gomp_abi.hpp"
#include "ompt/events.hpp"
#include "parallel/thread.hpp"
#include "worksharing/dispatch.hpp"
#include "worksharing/cancel.hpp"

namespace loom::omp::gomp {
namespace {

kmp_int32 kind_of(int which) {
    if (which & cancel_parallel_bit) return cancel_parallel;
    if (which & cancel_loop_bit) return cancel_loop;
    if (which & cancel_sections_bit) return cancel_sections;
    if (which & cancel_taskgroup_bit) return cancel_taskgroup;
    return cancel_noreq;
}

// A member that leaves a cancelled loop or sections construct for its end takes no more
// chunks: its dispatch loop ends here, so the team's loop buffer is released as if it had
// run out of chunks (the construct's end then needs no further call from it).
void leave_construct(kmp_int32 kind) {
    if (kind == cancel_loop || kind == cancel_sections) abandon_loop(current_task());
}

bool cancellation_point(int which, const void* ra) {
    const kmp_int32 kind = kind_of(which);
    if (kind == cancel_noreq) return false;
    if (!loom::omp::cancellation_point(kind)) return false;
    LOOM_OMPT_EVENT(cancel_construct(kind, ompt_cancel_detected, ra));
    leave_construct(kind);
    return true;
}

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// parallel.c: true when the construct is cancelled (the caller leaves it). do_cancel
// false (an `if` clause that is false) makes it a cancellation point.
LOOM_OMP_API bool GOMP_cancel(int which, bool do_cancel) {
    if (!do_cancel) return gomp::cancellation_point(which, LOOM_OMPT_RA);
    const kmp_int32 kind = kind_of(which);
    if (kind == cancel_noreq) return false;
    if (!request_cancel(kind)) return false;
    LOOM_OMPT_EVENT(cancel_construct(kind, ompt_cancel_activated, LOOM_OMPT_RA));
    leave_construct(kind);
    return true;
}

LOOM_OMP_API bool GOMP_cancellation_point(int which) {
    return gomp::cancellation_point(which, LOOM_OMPT_RA);
}
