// A program run with a long spin budget (KMP_BLOCKTIME=60000: members and idle workers
// spin for a minute before they sleep) must not wait for that budget when it exits or
// when it pauses the runtime: the drain at exit / pause finishes as soon as the last
// task completed, not when a spinning worker next goes to sleep. The test's timeout
// (20 s) is far below the budget, so a wait for it fails the test.
// loom-test: threads 2
// loom-test: env KMP_BLOCKTIME=60000
// loom-test: timeout 20
#include <omp.h>
#include <stdio.h>

int main(void) {
    int sum = 0;
    for (int r = 0; r < 3; ++r) {
#pragma omp parallel reduction(+ : sum)
        sum += 1;
        // Releases the workers (drain), then the next region brings them back.
        omp_pause_resource_all(omp_pause_soft);
    }
#pragma omp parallel reduction(+ : sum)
    sum += 1;
    if (sum != 4 * omp_get_max_threads()) {
        printf("FAILED: sum %d\n", sum);
        return 1;
    }
    printf("exit_long_blocktime: all passed\n");
    return 0;
}
