// ompt_set_callback / ompt_get_callback (OpenMP 5.2, 19.6.1.3-4): which events loom
// reports, and how reliably. `always`: every occurrence in both ABIs' paths; `sometimes`:
// some occurrences are not reported (listed in docs/omp.md, "OMPT"); `never`: loom
// cannot deliver the event (device and target events: no offload devices).
#include "ompt/callbacks.hpp"

#include "ompt/ompt.hpp"

namespace loom::omp::ompt {

ompt_set_result_t delivery(int event) noexcept {
    switch (event) {
    case ompt_callback_thread_begin:
    case ompt_callback_thread_end:
    case ompt_callback_parallel_begin:
    case ompt_callback_parallel_end:
    case ompt_callback_task_create:
    case ompt_callback_task_schedule:
    case ompt_callback_implicit_task:
    case ompt_callback_sync_region:
    case ompt_callback_sync_region_wait:
    case ompt_callback_task_dependence:
        return ompt_set_always;
    case ompt_callback_lock_init:      // the omp_* lock routines (not clang's __kmpc_*_lock)
    case ompt_callback_lock_destroy:
    case ompt_callback_nest_lock:
    case ompt_callback_mutex_acquire:  // critical, ordered, locks, the atomic lock; not clang inline atomics
    case ompt_callback_mutex_acquired:
    case ompt_callback_mutex_released:
    case ompt_callback_masked:         // gcc inlines master
    case ompt_callback_work:
    case ompt_callback_dispatch:
    case ompt_callback_cancel:
    case ompt_callback_flush:
    case ompt_callback_reduction:      // clang's reductions; gcc's are compiled inline
    case ompt_callback_control_tool:
    case ompt_callback_error:
    case ompt_callback_dependences:    // not a `taskwait depend nowait` (loom drops it)
        return ompt_set_sometimes;
    case ompt_callback_target:
    case ompt_callback_target_data_op:
    case ompt_callback_target_submit:
    case ompt_callback_device_initialize:
    case ompt_callback_device_finalize:
    case ompt_callback_device_load:
    case ompt_callback_device_unload:
    case ompt_callback_target_map:
    case ompt_callback_target_emi:
    case ompt_callback_target_data_op_emi:
    case ompt_callback_target_submit_emi:
    case ompt_callback_target_map_emi:
        return ompt_set_never;
    default:
        return ompt_set_error;
    }
}

ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t fn) noexcept {
    const ompt_set_result_t r = delivery(event);
    if (r == ompt_set_error) return r;
    // An event loom never reports is not registered either: get_callback then says so.
    g_callbacks[event].store(r == ompt_set_never ? nullptr : fn, std::memory_order_relaxed);
    return r;
}

int get_callback(ompt_callbacks_t event, ompt_callback_t* fn) noexcept {
    if (delivery(event) == ompt_set_error || !fn) return 0;
    ompt_callback_t c = g_callbacks[event].load(std::memory_order_relaxed);
    if (!c) return 0;
    *fn = c;
    return 1;
}

}  // namespace loom::omp::ompt
