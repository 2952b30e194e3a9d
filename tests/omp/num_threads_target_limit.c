// thread_limit on a target construct run on the host (clang calls
// __kmpc_set_thread_limit in the target task): it bounds the regions inside the target
// region, omp_get_thread_limit reports it there, and it ends with the target region,
// also for a task that runs next (loom reuses task records).
// loom-test: threads 4
// loom-test: flags -fopenmp-version=51
#include <omp.h>
#include <stdio.h>

static int failures = 0;

static int team_size(int request) {
    int n = 0;
#pragma omp parallel num_threads(request)
#pragma omp single
    n = omp_get_num_threads();
    return n;
}

int main(void) {
    int outside = omp_get_thread_limit();
#pragma omp target thread_limit(3)
    {
        if (omp_get_thread_limit() != 3) ++failures;
        if (team_size(8) != 3) ++failures;
        if (team_size(2) != 2) ++failures;
    }
#pragma omp task
    {
        if (omp_get_thread_limit() != outside) ++failures;
        if (team_size(5) != 5) ++failures;
    }
#pragma omp taskwait
    if (omp_get_thread_limit() != outside || team_size(5) != 5) ++failures;
#pragma omp target parallel num_threads(4) thread_limit(2)
#pragma omp single
    if (omp_get_num_threads() != 2) ++failures;
    if (failures) {
        printf("FAILED: %d checks\n", failures);
        return 1;
    }
    printf("num_threads_target_limit: all passed\n");
    return 0;
}
