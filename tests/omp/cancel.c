// Cancellation of parallel, for and sections regions; cancellation points.
// loom-test: threads 4
// loom-test: env OMP_CANCELLATION=true
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

int main(void) {
    CHECK(omp_get_cancellation() == 1);
    // cancel parallel: everybody leaves at the next cancellation point.
    int after = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp barrier
#pragma omp atomic
        after++;
    }
    CHECK(after < 4);

    // cancel for: the loop stops early; the region goes on after it.
    for (int rep = 0; rep < 20; ++rep) {
        int done = 0, past = 0;
#pragma omp parallel
        {
#pragma omp for schedule(static, 1)
            for (int i = 0; i < 100000; ++i) {
                if (i == 10) {
#pragma omp cancel for
                }
#pragma omp cancellation point for
#pragma omp atomic
                done++;
            }
#pragma omp atomic
            past++;
        }
        CHECK(done < 100000);
        CHECK(past == 4);
        // The next loop of the same team is not cancelled.
        int full = 0;
#pragma omp parallel for reduction(+ : full)
        for (int i = 0; i < 1000; ++i) full++;
        CHECK(full == 1000);
    }

    // cancel sections
    int ran = 0;
#pragma omp parallel
    {
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp cancel sections
#pragma omp atomic
                ran += 100;
            }
#pragma omp section
            {
#pragma omp atomic
                ran++;
            }
        }
    }
    CHECK(ran < 100);
    if (failures) return 1;
    printf("ok\n");
    return 0;
}
