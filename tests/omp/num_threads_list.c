// num_threads lists (OpenMP 6.0; libomp 19's __kmpc_push_num_threads_list, which clang
// 19 does not emit yet): entry i sizes nesting level i below the region, the last one
// repeats, the region after it is unaffected; OMP_NUM_THREADS lists likewise. Teams are
// gangs on distinct workers in loom, so this checks that a list-sized top-level region
// makes room for its whole nest.
// loom-test: env OMP_NUM_THREADS=2,2,2
#include <omp.h>
#include <stdio.h>

extern int __kmpc_global_thread_num(void*);
extern void __kmpc_push_num_threads_list(void*, int, unsigned, int*);

static int failures = 0;

// Sizes of the teams at levels 1..3 seen by thread 0 of each.
static void nest(int want1, int want2, int want3) {
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        bad += omp_get_num_threads() != want1;
#pragma omp parallel reduction(+ : bad)
        {
            bad += omp_get_num_threads() != want2;
#pragma omp parallel reduction(+ : bad)
            bad += omp_get_num_threads() != want3;
        }
    }
    if (bad) {
        printf("FAILED: want %d,%d,%d: %d mismatches\n", want1, want2, want3, bad);
        ++failures;
    }
}

int main(void) {
    for (int rep = 0; rep < 5; ++rep) {
        nest(2, 2, 2);  // OMP_NUM_THREADS
        int l33[2] = {3, 3};
        __kmpc_push_num_threads_list(NULL, __kmpc_global_thread_num(NULL), 2, l33);
        nest(3, 3, 3);  // the last entry repeats
        int l32[2] = {3, 2};
        __kmpc_push_num_threads_list(NULL, __kmpc_global_thread_num(NULL), 2, l32);
        nest(3, 2, 2);
#pragma omp parallel num_threads(4)
#pragma omp single
        if (omp_get_num_threads() != 4) ++failures;
        nest(2, 2, 2);  // nothing pushed: back to OMP_NUM_THREADS
    }
    if (failures) return 1;
    printf("num_threads_list: all passed\n");
    return 0;
}
