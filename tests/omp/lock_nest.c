// omp_nest_lock_t: the owner re-enters to any depth, omp_test_nest_lock returns the new
// depth for the owner and 0 for anyone else, the lock is only released when the depth
// returns to 0, and mutual exclusion holds under contention with recursion.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#define DEPTH 1000
#define ITERS 5000
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

static omp_nest_lock_t nl;
static volatile long counter = 0;

static void recurse(int depth) {
    omp_set_nest_lock(&nl);
    if (depth > 0) recurse(depth - 1);
    long v = counter;
    for (volatile int k = 0; k < 8; k++) {
    }
    counter = v + 1;
    omp_unset_nest_lock(&nl);
}

int main(void) {
    omp_init_nest_lock(&nl);

    // Depth, counted by test_nest_lock.
    for (int d = 1; d <= DEPTH; d++) {
        int got = omp_test_nest_lock(&nl);
        if (got != d) {
            CHECK(0, "test_nest_lock depth %d returned %d", d, got);
            break;
        }
    }
    int other = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&nl);
    CHECK(other == 0, "test by a non-owner: %d", other);
    omp_set_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == DEPTH + 2, "depth after set + test");
    for (int d = 0; d < DEPTH + 1; d++) omp_unset_nest_lock(&nl);
    // Still held once: others must fail; after the last unset they succeed.
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&nl);
    CHECK(other == 0, "lock released too early");
    omp_unset_nest_lock(&nl);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) {
        other = omp_test_nest_lock(&nl);
        if (other) omp_unset_nest_lock(&nl);
    }
    CHECK(other == 1, "lock not released at depth 0: %d", other);

    // Contention with recursion: each thread re-enters 3 levels deep.
    int team = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        team = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) recurse(2);
    }
    CHECK(counter == (long)team * ITERS * 3, "nested contention: %ld", counter);

    // test_nest_lock as a spin loop, then nested sets while holding.
    counter = 0;
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS; i++) {
        while (omp_test_nest_lock(&nl) == 0) {
        }
        omp_set_nest_lock(&nl);
        long v = counter;
        counter = v + 1;
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
    }
    CHECK(counter == (long)team * ITERS, "test_nest_lock spin: %ld", counter);
    omp_destroy_nest_lock(&nl);

    // Re-initialised after destroy.
    omp_init_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 1, "fresh nest lock");
    omp_unset_nest_lock(&nl);
    omp_destroy_nest_lock(&nl);

    if (failures == 0) printf("lock_nest: all passed\n");
    return failures == 0 ? 0 : 1;
}
