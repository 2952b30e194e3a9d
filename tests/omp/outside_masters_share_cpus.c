// Threads outside the pool share its CPUs (parallel/outside_masters.hpp), on a pool of
// 2 workers (2 CPUs):
// 1. pthread A runs a region of 2 and, inside it, pthread B runs a region of 2: A and
//    its member hold both CPUs, so on loom B's region runs alone instead of taking A's
//    member's worker (3 threads on 2 CPUs; before, B got 2). Once B has ended, another
//    pthread's region has its 2 threads again.
// 2. A pthread that asked omp_get_max_threads() gets the team it was told of even if
//    another pthread is active when its region starts: code sizes its regions by the
//    routine, and OpenMP OpenBLAS's threads wait for one another (a smaller team never
//    ends: 2 std::threads calling dgemm hung when such regions were cut).
// 3. omp_get_max_threads() answers nthreads-var also while another pthread's region
//    holds both CPUs: programs size arrays by the answer once and index them by thread
//    number in later regions, so it must not vary with the load.
// libomp and libgomp give every region what it asks for: the sizes are checked on loom
// only (EXPECT_SHARED_CPUS); each region's work is checked everywhere.
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

static int expect_shared;
static atomic_int first_in;  // the first pthread of a part is where the second may start
static atomic_int second_result;  // what the second pthread saw (0: not yet)

static void wait_for(atomic_int* flag) {
    while (atomic_load(flag) == 0) sched_yield();
}

// A region summing 0..N-1 (num_threads(want), or none when want is 0); returns its
// team size and checks the sum. `inside` runs on the master while the team is up.
static int region(int want, void (*inside)(void)) {
    int size = 0;
    long sum = 0;
#pragma omp parallel num_threads(want > 0 ? want : omp_get_max_threads()) reduction(+ : sum)
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

static int plain_region(void) {
    int size = 0;
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) sum += i;
#pragma omp master
        size = omp_get_num_threads();
    }
    CHECK(sum == (long)N * (N - 1) / 2);
    return size;
}

static void let_second_run(void) {
    atomic_store(&first_in, 1);
    wait_for(&second_result);
}

static void run_pair(void* (*first)(void*), void* (*second)(void*)) {
    atomic_store(&first_in, 0);
    atomic_store(&second_result, 0);
    pthread_t a, b;
    pthread_create(&a, NULL, first, NULL);
    pthread_create(&b, NULL, second, NULL);
    pthread_join(b, NULL);
    pthread_join(a, NULL);
}

// Part 1.
static void* region_letting_second_run(void* arg) {
    (void)arg;
    int size = region(2, let_second_run);
    if (expect_shared) CHECK(size == 2);
    return NULL;
}
static void* region_of_two_inside_first(void* arg) {
    (void)arg;
    wait_for(&first_in);
    atomic_store(&second_result, region(2, NULL));
    return NULL;
}
static void* region_of_two(void* arg) {
    (void)arg;
    atomic_store(&second_result, region(2, NULL));
    return NULL;
}

// Part 2.
static void* ask_then_region(void* arg) {
    (void)arg;
    int announced = omp_get_max_threads();
    CHECK(announced == 2);
    atomic_store(&first_in, 1);
    wait_for(&second_result);  // the other pthread is inside its region now
    int size = region(announced, NULL);
    if (expect_shared) CHECK(size == announced);
    atomic_store(&second_result, 2);  // it may leave its region
    return NULL;
}
static void wait_until_first_done(void) {
    atomic_store(&second_result, 1);
    while (atomic_load(&second_result) != 2) sched_yield();
}
// A region of one thread: the other pthread's region would be cut to 1 beside it if it
// had not asked, and worker 1 stays free for it.
static void* region_until_first_done(void* arg) {
    (void)arg;
    wait_for(&first_in);
    region(1, wait_until_first_done);
    return NULL;
}

// Part 3.
static void* ask_inside_first(void* arg) {
    (void)arg;
    wait_for(&first_in);
    int announced = omp_get_max_threads();
    int size = plain_region();
    CHECK(size >= 1 && size <= announced);
    atomic_store(&second_result, announced);
    return NULL;
}

int main(void) {
    expect_shared = getenv("EXPECT_SHARED_CPUS") != NULL;
    CHECK(omp_get_max_threads() == 2);

    run_pair(region_letting_second_run, region_of_two_inside_first);
    int b_size = atomic_load(&second_result);
    CHECK(b_size >= 1 && b_size <= 2);
    if (expect_shared) CHECK(b_size == 1);
    // Alone again: 2 threads.
    pthread_t c;
    pthread_create(&c, NULL, region_of_two, NULL);
    pthread_join(c, NULL);
    if (expect_shared) CHECK(atomic_load(&second_result) == 2);

    run_pair(ask_then_region, region_until_first_done);

    run_pair(region_letting_second_run, ask_inside_first);
    int asked = atomic_load(&second_result);
    CHECK(asked == 2);

    if (failures == 0) printf("outside_masters_share_cpus: all passed (part 1: B had %d threads)\n", b_size);
    return failures != 0;
}
