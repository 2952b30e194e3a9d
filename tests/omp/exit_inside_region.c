// exit() called inside a parallel region while the other members wait at a barrier:
// the process must end with the status given to exit(), not hang in the runtime's
// exit-time shutdown waiting for members whose master is gone.
// loom-test: threads 4
// loom-test: timeout 20
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int ran = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp atomic
        ran++;
        if (omp_get_thread_num() == 0) {
            // Let the others reach the barrier first.
            while (1) {
                int seen;
#pragma omp atomic read
                seen = ran;
                if (seen == omp_get_num_threads()) break;
            }
            printf("exit_inside_region: exiting from inside the region\n");
            fflush(stdout);
            exit(0);
        }
#pragma omp barrier
    }
    printf("not reached\n");
    return 1;
}
