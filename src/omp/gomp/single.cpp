// GOMP single and scope (libgomp single.c, scope.c): the single's winner is the member
// kmpc's single picks; copyprivate hands the winner's pointer to the others through
// kmpc's light copyprivate (one team barrier).
#include "gomp/gomp_abi.hpp"
#include "ompt/events.hpp"
#include "worksharing/single.hpp"

using namespace loom::omp;
using namespace loom::omp::gomp;

// single.c: true for the one member that runs the block.
// gcc calls nothing at the end of the block: the single is reported as one begin/end
// pair when it is handed out.
LOOM_OMP_API bool GOMP_single_start() {
    const bool mine = single_begin(current_task());
    if (ompt::on()) [[unlikely]] {
        const ompt_work_t w = mine ? ompt_work_single_executor : ompt_work_single_other;
        ompt::work(w, ompt_scope_begin, 1, LOOM_OMPT_RA);
        ompt::work(w, ompt_scope_end, 1, LOOM_OMPT_RA);
    }
    return mine;
}

// single.c GOMP_single_copy_start: null for the member that runs the block (it then calls
// GOMP_single_copy_end with its data); the others wait and get that data. gcc follows the
// copy with a GOMP_barrier, which keeps the winner's data alive until all copied.
LOOM_OMP_API void* GOMP_single_copy_start() {
    implicit_task* it = current_task();
    if (single_begin(it)) return nullptr;
    return copyprivate_pointer(it, nullptr);
}

LOOM_OMP_API void GOMP_single_copy_end(void* data) {
    copyprivate_pointer(current_task(), data);
}

// scope.c (OpenMP 5.1 scope with reduction(task, ...)): the construct's task reductions;
// its end is a GOMP_barrier (and GOMP_workshare_task_reduction_unregister) gcc emits.
LOOM_OMP_API void GOMP_scope_start(std::uintptr_t* reductions) {
    workshare_extras(reductions, nullptr);
}
