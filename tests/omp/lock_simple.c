// omp_lock_t: init / set / unset / test / destroy, mutual exclusion under contention
// (4 threads on this 2-core machine, so holders get preempted and waiters must sleep
// rather than spin forever), omp_test_lock as a try-lock and as a spin loop, a lock
// handed between threads, and many locks at once.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#define ITERS 20000
static int failures = 0;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            failures++;                                               \
            printf("FAIL line %d: ", __LINE__);                       \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
        }                                                             \
    } while (0)

// A non-atomic read-modify-write with a window: lost updates show up unless excluded.
static void slow_increment(volatile long* p) {
    long v = *p;
    for (volatile int k = 0; k < 8; k++) {
    }
    *p = v + 1;
}

int main(void) {
    omp_lock_t lock;
    omp_init_lock(&lock);

    // Uncontended: test on a free lock succeeds, on a set lock fails.
    CHECK(omp_test_lock(&lock) == 1, "test of a free lock");
    omp_unset_lock(&lock);
    omp_set_lock(&lock);
    int other = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) other = omp_test_lock(&lock);
    CHECK(other == 0, "test of a lock set by another thread: %d", other);
    omp_unset_lock(&lock);

    // Contention through omp_set_lock.
    volatile long counter = 0;
    int team = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        team = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
            omp_set_lock(&lock);
            slow_increment(&counter);
            omp_unset_lock(&lock);
        }
    }
    CHECK(counter == (long)team * ITERS, "set/unset: %ld != %ld", counter, (long)team * ITERS);

    // Contention through omp_test_lock spin loops.
    counter = 0;
    long failed_tests = 0;
#pragma omp parallel num_threads(4) reduction(+ : failed_tests)
    for (int i = 0; i < ITERS / 4; i++) {
        while (!omp_test_lock(&lock)) failed_tests++;
        slow_increment(&counter);
        omp_unset_lock(&lock);
    }
    CHECK(counter == (long)team * (ITERS / 4), "test/unset: %ld", counter);

    // A lock set by one thread and waited for by the others for a while: the waiters
    // sleep and are all woken.
    omp_set_lock(&lock);
    counter = 0;
#pragma omp parallel num_threads(4)
    {
        if (omp_get_thread_num() == 0) {
            double t0 = omp_get_wtime();
            while (omp_get_wtime() - t0 < 0.05) {
            }
            omp_unset_lock(&lock);
        } else {
            omp_set_lock(&lock);
            slow_increment(&counter);
            omp_unset_lock(&lock);
        }
    }
    CHECK(counter == team - 1, "waiters woken: %ld", counter);
    omp_destroy_lock(&lock);

    // Many locks: one per bucket, threads hop between them.
    enum { NL = 64 };
    omp_lock_t locks[NL];
    long buckets[NL] = {0};
    for (int i = 0; i < NL; i++) omp_init_lock(&locks[i]);
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS; i++) {
        int b = (i * 7 + omp_get_thread_num() * 3) % NL;
        omp_set_lock(&locks[b]);
        slow_increment(&buckets[b]);
        omp_unset_lock(&locks[b]);
    }
    long sum = 0;
    for (int i = 0; i < NL; i++) {
        sum += buckets[i];
        omp_destroy_lock(&locks[i]);
    }
    CHECK(sum == (long)team * ITERS, "many locks: %ld", sum);

    // A lock can be re-initialised after destroy and used again.
    omp_init_lock(&lock);
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
    omp_destroy_lock(&lock);

    if (failures == 0) printf("lock_simple: all passed (%ld failed tests)\n", failed_tests);
    return failures == 0 ? 0 : 1;
}
