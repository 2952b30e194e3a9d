// detach(event): the task completes when both its body ended and omp_fulfill_event was
// called, whichever comes last (extra::detach: 1 fulfilled, 2 body ended).
#include <atomic>
#include <cstdint>

#include "tasking/task.hpp"

namespace ext = loom::ext;

namespace loom::omp::tasking {

void* allow_completion_event(kmp_task_t* kt) {
    ext::task* rec = record_of(kt);
    extra* x = ensure_extra(rec);
    rec->user |= u_detach;
    x->event_tag = reinterpret_cast<std::uintptr_t>(rec);
    return x;
}

}  // namespace loom::omp::tasking

using namespace loom::omp;
using namespace loom::omp::tasking;

LOOM_OMP_API void omp_fulfill_event(std::uintptr_t event) {
    auto* x = reinterpret_cast<extra*>(event);
    if (!x) return;
    auto* rec = reinterpret_cast<ext::task*>(x->event_tag);
    if (x->detach.exchange(1, std::memory_order_acq_rel) == 2) complete(rec, false);
}
