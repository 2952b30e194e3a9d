// KMP_HW_SUBSET restricts the processors OpenMP places are built from: one socket,
// one core of it, one hardware thread of that core leaves one place of one processor.
// loom-test: env KMP_HW_SUBSET=1s,1c,1t OMP_PLACES=threads
#include <omp.h>
#include <stdio.h>

int main(void) {
    int n = omp_get_num_places();
    if (n != 1 || omp_get_place_num_procs(0) != 1) {
        printf("FAIL: %d places, the first with %d processors; expected 1 of 1\n", n,
               n > 0 ? omp_get_place_num_procs(0) : 0);
        return 1;
    }
    printf("affinity_hw_subset: all passed\n");
    return 0;
}
