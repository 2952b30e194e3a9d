// num_threads(strict: n) with severity(warning) and message (OpenMP 6.0; libomp 19's
// __kmpc_push_num_threads_strict / _list_strict): a region that cannot have n threads
// reports the message and goes on with fewer; one that can is silent and has n.
// loom-test: env OMP_THREAD_LIMIT=2 OMP_NUM_THREADS=2
// loom-test: expect-stderr strict user message one
// loom-test: expect-stderr strict user message two
#include <omp.h>
#include <stdio.h>

extern int __kmpc_global_thread_num(void*);
extern void __kmpc_push_num_threads_strict(void*, int, int, int, const char*);
extern void __kmpc_push_num_threads_list_strict(void*, int, unsigned, int*, int, const char*);

int main(void) {
    int gtid = __kmpc_global_thread_num(NULL);
    int n = 0;
    __kmpc_push_num_threads_strict(NULL, gtid, 2, 1, "this message must not appear");
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    if (n != 2) {
        printf("FAILED: strict 2 gave %d threads\n", n);
        return 1;
    }
    __kmpc_push_num_threads_strict(NULL, gtid, 4, 1, "strict user message one");
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    if (n < 1 || n > 2) {
        printf("FAILED: strict 4 under thread limit 2 gave %d threads\n", n);
        return 1;
    }
    int list[2] = {3, 1};
    __kmpc_push_num_threads_list_strict(NULL, gtid, 2, list, 1, "strict user message two");
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    if (n < 1 || n > 2) {
        printf("FAILED: strict list 3,1 under thread limit 2 gave %d threads\n", n);
        return 1;
    }
    printf("num_threads_strict: all passed\n");
    return 0;
}
