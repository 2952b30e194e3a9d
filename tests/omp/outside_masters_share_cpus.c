// Threads outside the pool share its CPUs: on a pool of 2 (2 CPUs), pthread A runs a
// region of 2 and, inside it, lets pthread B run a region of 2. A and its member hold
// both CPUs, so on loom B's region runs alone (parallel/outside_masters.hpp) instead of
// taking A's member's worker and making 3 threads on 2 CPUs (before: B got 2 threads).
// Once B has ended, A's next region has its 2 threads again. libomp and libgomp give
// every region the threads it asks for (the sizes are checked on loom only, through
// EXPECT_SHARED_CPUS); the work of every region is checked everywhere.
// loom-test: threads 2
// loom-test: env-loom EXPECT_SHARED_CPUS=1
// loom-test: timeout 60
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

enum { N = 1000 };

static atomic_int a_in_region;  // A's master is inside its region
static atomic_int b_size;       // B's team size, 0 until B's region reported it
static int expect_shared;

// A region of 2 threads summing 0..N-1; returns its team size, checks the sum.
// `inside` runs on the master while the members are in the region.
static int region_of_two(void (*inside)(void)) {
    int size = 0;
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) sum += i;
#pragma omp master
        {
            size = omp_get_num_threads();
            if (inside) inside();
        }
    }
    CHECK(sum == (long)N * (N - 1) / 2);
    return size;
}

static void wait_for_b(void) {
    atomic_store(&a_in_region, 1);
    while (atomic_load(&b_size) == 0) sched_yield();
}

static void* thread_a(void* arg) {
    (void)arg;
    int first = region_of_two(wait_for_b);
    if (expect_shared) CHECK(first == 2);
    return NULL;
}

static void* thread_b(void* arg) {
    if (arg)
        while (atomic_load(&a_in_region) == 0) sched_yield();
    atomic_store(&b_size, region_of_two(NULL));
    return NULL;
}

int main(void) {
    expect_shared = getenv("EXPECT_SHARED_CPUS") != NULL;
    CHECK(omp_get_max_threads() == 2);
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, &a);
    pthread_join(b, NULL);
    pthread_join(a, NULL);
    int bs = atomic_load(&b_size);
    CHECK(bs >= 1 && bs <= 2);
    if (expect_shared) CHECK(bs == 1);

    // B is gone: a region of another thread outside the pool gets its 2 threads again.
    pthread_t c;
    pthread_create(&c, NULL, thread_b, NULL);
    pthread_join(c, NULL);
    if (expect_shared) CHECK(atomic_load(&b_size) == 2);

    if (failures == 0) printf("outside_masters_share_cpus: all passed (B's team %d)\n", bs);
    return failures != 0;
}
