// threadprivate (native TLS) persists across regions of the same team size; copyin.
// loom-test: threads 3
#include <omp.h>
#include <stdio.h>

static int counter = 5;
#pragma omp threadprivate(counter)
static double scale = 1.5;
#pragma omp threadprivate(scale)

int main(void) {
    int failures = 0;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(3)
    counter = 100 + omp_get_thread_num();
    for (int r = 0; r < 50; ++r) {
#pragma omp parallel num_threads(3) reduction(+ : failures)
        {
            if (counter != 100 + omp_get_thread_num() + r) failures++;
            counter++;
        }
    }
    scale = 2.5;
#pragma omp parallel num_threads(3) copyin(scale) reduction(+ : failures)
    if (scale != 2.5) failures++;
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
