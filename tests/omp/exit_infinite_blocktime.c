// A program that ends while its team's members spin without a budget
// (KMP_BLOCKTIME=infinite, OMP_WAIT_POLICY=active) must still exit: the members
// lingering for the next region have to let the runtime's exit-time shutdown finish.
// loom-test: threads 4
// loom-test: env KMP_BLOCKTIME=infinite OMP_WAIT_POLICY=active
// loom-test: timeout 20
#include <omp.h>
#include <stdio.h>

int main(void) {
    int counts[4] = {0};
    for (int r = 0; r < 10; ++r) {
#pragma omp parallel num_threads(4)
        {
#pragma omp atomic
            counts[omp_get_thread_num()]++;
#pragma omp barrier
        }
    }
    int bad = 0;
    for (int i = 0; i < 4; ++i)
        if (counts[i] < 1 || counts[i] > 10) bad = 1;
    if (bad) {
        printf("unexpected team sizes\n");
        return 1;
    }
    printf("exit_infinite_blocktime: all passed\n");
    return 0;  // the hot team is still lingering here
}
