// OMP_ALLOCATOR as a memory space with traits (OpenMP 5.2, 21.5.1): the default
// allocator of every thread is a custom one that honours the alignment, pool_size and
// fallback traits.
// loom-test: threads 2
// loom-test: env OMP_ALLOCATOR=omp_default_mem_space:alignment=64,pool_size=1048576,fallback=null_fb
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
    omp_allocator_handle_t a = omp_get_default_allocator();
    if (a == omp_default_mem_alloc || a == omp_null_allocator) {
        printf("FAILED: OMP_ALLOCATOR ignored\n");
        return 1;
    }
    void* p = omp_alloc(100, omp_null_allocator);
    void* big = omp_alloc(2 * 1024 * 1024, omp_null_allocator);  // beyond the pool: null_fb
    if (!p || (uintptr_t)p % 64 != 0 || big != NULL) {
        printf("FAILED: p=%p big=%p\n", p, big);
        return 1;
    }
    omp_free(p, omp_null_allocator);
    int same = 0;
#pragma omp parallel num_threads(2) reduction(+ : same)
    same += omp_get_default_allocator() == a;
    if (same != 2) {
        printf("FAILED: %d of 2 threads use OMP_ALLOCATOR's allocator\n", same);
        return 1;
    }
    printf("env_allocator: all passed\n");
    return 0;
}
