// detach(event): the task completes when both its body ended and omp_fulfill_event was
// called, whichever comes last (extra::detach: 1 fulfilled, 2 body ended).
//
// With a tool, each side reports how it found the other (as libomp): the body's end
// task_schedule `complete` (fulfilled already) or `ompt_task_detach`; the fulfilment
// `ompt_task_early_fulfill` (body running) or `ompt_task_late_fulfill` (body ended,
// the task completes now). A report reads the task's tool data, so it must come
// before the other side may complete and free the task: each side's exchange and
// report are made under the task's stripe of the OMPT striped locks.
#include <atomic>
#include <cstdint>

#include "ompt/events.hpp"
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

bool detached_body_ended(ext::task* rec, ompt_data_t* ompt_prior) noexcept {
    extra* x = extra_of(rec);
    if (!ompt_prior) return x->detach.exchange(2, std::memory_order_acq_rel) == 1;
    ompt::lock_depnode(x);
    const bool fulfilled = x->detach.exchange(2, std::memory_order_acq_rel) == 1;
    ompt::task_switch_out(data_of(rec), ompt_prior, !fulfilled);
    ompt::unlock_depnode(x);
    return fulfilled;
}

namespace {

// omp_fulfill_event with a tool (the protocol above).
void fulfill_observed(extra* x, ext::task* rec) {
    ompt::lock_depnode(x);
    const int before = x->detach.exchange(1, std::memory_order_acq_rel);
    if (before == 0) ompt::task_schedule(&x->ompt_task, ompt_task_early_fulfill, nullptr);
    ompt::unlock_depnode(x);
    if (before != 2) return;
    ompt::task_schedule(&x->ompt_task, ompt_task_late_fulfill, nullptr);
    complete(rec, false);
}

}  // namespace

}  // namespace loom::omp::tasking

using namespace loom::omp;
using namespace loom::omp::tasking;

LOOM_OMP_API void omp_fulfill_event(std::uintptr_t event) {
    auto* x = reinterpret_cast<extra*>(event);
    if (!x) return;
    auto* rec = reinterpret_cast<ext::task*>(x->event_tag);
    if (ompt::on()) [[unlikely]] {
        fulfill_observed(x, rec);
        return;
    }
    if (x->detach.exchange(1, std::memory_order_acq_rel) == 2) complete(rec, false);
}
