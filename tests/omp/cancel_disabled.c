// Without OMP_CANCELLATION, cancel constructs are ignored.
// loom-test: threads 2
#include <omp.h>
#include <stdio.h>

int main(void) {
    if (omp_get_cancellation() != 0) return 1;
    int done = 0;
#pragma omp parallel for reduction(+ : done)
    for (int i = 0; i < 1000; ++i) {
        if (i == 3) {
#pragma omp cancel for
        }
        done++;
    }
    if (done != 1000) return 2;
    printf("ok\n");
    return 0;
}
