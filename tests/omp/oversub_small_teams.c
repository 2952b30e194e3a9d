// Small teams with tasks in an oversubscribed pool: OMP_NUM_THREADS=8 on a 2-CPU
// machine, 2000 regions of num_threads(2) { single { 10 tasks; taskwait } }, then 8
// pthreads each running such regions at once. A member waiting for the other must give
// it the CPU: before, waits spun their whole budget (0.7-0.8 ms per region against
// libomp's 23 us; the pthreads variant took 7.7 s against 0.05 s). Timing is reported,
// not asserted; the time limit is the hang guard.
// loom-test: threads 8
// loom-test: timeout 60
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#include "check.h"

enum { REGIONS = 2000, THREADS = 8 };

static long regions_with_tasks(int regions) {
    long ran = 0;
    for (int r = 0; r < regions; r++) {
#pragma omp parallel num_threads(2) shared(ran)
#pragma omp single
        {
            for (int i = 0; i < 10; i++) {
#pragma omp task shared(ran)
                {
#pragma omp atomic
                    ran++;
                }
            }
#pragma omp taskwait
        }
    }
    return ran;
}

static void* thread_main(void* arg) {
    *(long*)arg = regions_with_tasks(REGIONS / 4);
    return NULL;
}

int main(void) {
    double t0 = omp_get_wtime();
    CHECK(regions_with_tasks(REGIONS) == 10L * REGIONS);
    double t1 = omp_get_wtime();
    pthread_t threads[THREADS];
    long ran[THREADS];
    for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&threads[i], NULL, thread_main, &ran[i]) == 0);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        CHECK(ran[i] == 10L * (REGIONS / 4));
    }
    double t2 = omp_get_wtime();
    printf("one thread: %.1f us per region; %d pthreads: %.3f s\n", (t1 - t0) / REGIONS * 1e6,
           THREADS, t2 - t1);
    if (failures == 0) printf("oversub_small_teams: all passed\n");
    return failures != 0;
}
