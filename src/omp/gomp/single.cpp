// GOMP single and scope (libgomp single.c, scope.c): the single's winner is the member
// kmpc's single picks; copyprivate hands the winner's pointer to the others through
// kmpc's light copyprivate (one team barrier).
#include "gomp/gomp_abi.hpp"

using namespace loom::omp;
using namespace loom::omp::gomp;

// single.c: true for the one member that runs the block.
LOOM_OMP_API bool GOMP_single_start() { return __kmpc_single(&gomp_loc, gtid()) != 0; }

// single.c GOMP_single_copy_start: null for the member that runs the block (it then calls
// GOMP_single_copy_end with its data); the others wait and get that data. gcc follows the
// copy with a GOMP_barrier, which keeps the winner's data alive until all copied.
LOOM_OMP_API void* GOMP_single_copy_start() {
    if (__kmpc_single(&gomp_loc, gtid()) != 0) return nullptr;
    return __kmpc_copyprivate_light(&gomp_loc, gtid(), nullptr);
}

LOOM_OMP_API void GOMP_single_copy_end(void* data) {
    __kmpc_copyprivate_light(&gomp_loc, gtid(), data);
}

// scope.c (OpenMP 5.1 scope with reduction(task, ...)): the construct's task reductions;
// its end is a GOMP_barrier (and GOMP_workshare_task_reduction_unregister) gcc emits.
LOOM_OMP_API void GOMP_scope_start(std::uintptr_t* reductions) {
    workshare_extras(reductions, nullptr);
}
