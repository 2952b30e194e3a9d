// LIBOMP_NUM_HIDDEN_HELPER_THREADS=2: libomp holds gtids 1..3 (the helpers' master and
// two helpers), so target tasks run with gtid 2 or 3 and other threads start at 4;
// KMP_HIDDEN_HELPER_AFFINITY=verbose with an explicit proclist prints one binding line
// per helper (libomp's message #254) and no "may migrate" line.
// loom-test: threads 2
// loom-test: env LIBOMP_NUM_HIDDEN_HELPER_THREADS=2
// loom-test: setenv KMP_HIDDEN_HELPER_AFFINITY verbose,granularity=fine,explicit,proclist=[0]
// loom-test: expect-stderr KMP_HIDDEN_HELPER_AFFINITY: pid [0-9]+ tid [0-9]+ thread 2 bound to OS proc set 0
// loom-test: expect-stderr KMP_HIDDEN_HELPER_AFFINITY: pid [0-9]+ tid [0-9]+ thread 3 bound to OS proc set 0
#include <omp.h>
#include <stdio.h>

int __kmpc_global_thread_num(void*);

int main(void) {
    int failures = 0;
#pragma omp parallel reduction(+ : failures)
    {
        const int g = __kmpc_global_thread_num(NULL);
        if (g != 0 && g < 4) {
            printf("regular thread with gtid %d\n", g);
            failures++;
        }
    }
    int seen[64] = {0};
    for (int i = 0; i < 64; ++i) {
#pragma omp target nowait map(tofrom : seen)
        seen[i] = __kmpc_global_thread_num(NULL);
    }
#pragma omp taskwait
    for (int i = 0; i < 64; ++i)
        if (seen[i] != 2 && seen[i] != 3) {
            printf("target task %d ran with gtid %d\n", i, seen[i]);
            failures++;
        }
    if (failures) return 1;
    printf("hidden_helper_count: all passed\n");
    return 0;
}
