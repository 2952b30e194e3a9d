// An OMP_ALLOCATOR that is neither a predefined allocator nor a memory space gives
// libomp's numbered warning (programs and LLVM's env/omp_alloc_env_invalid look for
// "OMP: Warning #") and omp_default_mem_alloc.
// loom-test: env OMP_ALLOCATOR=omp_default_mem_alloc_xyz
// loom-test: expect-stderr ^OMP: Warning #[0-9]+: OMP_ALLOCATOR
#include <omp.h>
#include <stdio.h>

int main(void) {
    if (omp_get_default_allocator() != omp_default_mem_alloc) {
        printf("FAILED: default allocator %lu\n", (unsigned long)omp_get_default_allocator());
        return 1;
    }
    void* p = omp_alloc(64, omp_null_allocator);
    if (!p) return 1;
    omp_free(p, omp_null_allocator);
    printf("env_allocator_invalid: all passed\n");
    return 0;
}
