// A simulated machine (HWLOC_SYNTHETIC: 16 cores) on the real CPUs of this host: the
// pool of 16 workers shares the few real ones, and 8 pthreads each run regions of 8
// threads. Waiting threads must know the pool is oversubscribed (they yield their CPU
// to the members they wait for): loom took the simulated processors for real ones, so
// every wait spun out its time slice. On 2 CPUs, 8 x 3000 regions took 53 s (clang
// build; 26-41 s for 4000 regions of a similar program) instead of 0.2 s, so the
// 8 x 6000 here ran past the time limit. Timing is reported, not asserted; the time
// limit is the hang guard. libomp and libgomp ignore HWLOC_SYNTHETIC: for them it is a
// plain oversubscribed run.
// loom-test: threads 16
// loom-test: setenv HWLOC_SYNTHETIC pack:1 core:16 pu:1
// loom-test: timeout 60
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#include "check.h"

enum { PTHREADS = 8, REGIONS = 6000, N = 1024 };

static void* run(void* arg) {
    long* bad = arg;
    for (int r = 0; r < REGIONS; r++) {
        long sum = 0;
#pragma omp parallel for num_threads(PTHREADS) reduction(+ : sum) schedule(static)
        for (int i = 0; i < N; i++) sum += i;
        if (sum != (long)N * (N - 1) / 2) ++*bad;
    }
    return NULL;
}

int main(void) {
    pthread_t t[PTHREADS];
    long bad[PTHREADS] = {0};
    double t0 = omp_get_wtime();
    for (int i = 0; i < PTHREADS; i++) pthread_create(&t[i], NULL, run, &bad[i]);
    for (int i = 0; i < PTHREADS; i++) pthread_join(t[i], NULL);
    double t1 = omp_get_wtime();
    for (int i = 0; i < PTHREADS; i++) CHECK(bad[i] == 0);
    if (failures == 0)
        printf("simulated_machine_pthreads: all passed (%d x %d regions in %.0f ms)\n", PTHREADS,
               REGIONS, (t1 - t0) * 1e3);
    return failures != 0;
}
