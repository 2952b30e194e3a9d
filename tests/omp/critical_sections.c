// critical: the unnamed section, named sections (one lock per name, shared by every
// function that uses the name, distinct names independent of each other), hints
// (clang emits __kmpc_critical_with_hint), many names first used by all threads at
// once (the lock is installed lazily by CAS), and exclusion across nested teams.
// 4 threads on this 2-core machine.
// loom-test: threads 4
// loom-test: timeout 120
#include <omp.h>
#include <stdio.h>

#define ITERS 10000
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

static volatile int inside = 0;
static volatile long counter = 0;
static int overlaps = 0;

// Body of a critical section: counts, and notices if another thread is inside too.
static void body(void) {
    if (++inside != 1) overlaps++;
    long v = counter;
    for (volatile int k = 0; k < 6; k++) {
    }
    counter = v + 1;
    --inside;
}

static void orphaned_a(void) {
#pragma omp critical(shared_name)
    body();
}
static void orphaned_b(void) {
#pragma omp critical(shared_name)
    body();
}

#define DO_PRAGMA(x) _Pragma(#x)
#define HINTED(NAME, HINT)                                                   \
    static long run_##NAME(void) {                                           \
        counter = 0;                                                         \
        _Pragma("omp parallel num_threads(4)")                               \
        for (int i = 0; i < ITERS; i++) {                                    \
            DO_PRAGMA(omp critical(NAME) hint(HINT))                         \
            body();                                                          \
        }                                                                    \
        return counter;                                                      \
    }
HINTED(h_none, omp_sync_hint_none)
HINTED(h_uncontended, omp_sync_hint_uncontended)
HINTED(h_contended, omp_sync_hint_contended)
HINTED(h_speculative, omp_sync_hint_speculative)
HINTED(h_nonspeculative, omp_sync_hint_nonspeculative)
HINTED(h_cont_spec, omp_sync_hint_contended | omp_sync_hint_speculative)
HINTED(h_uncont_nonspec, omp_sync_hint_uncontended | omp_sync_hint_nonspeculative)

// Many names, each first entered by all threads at the same moment.
#define FRESH(K)                                                             \
    {                                                                        \
        _Pragma("omp barrier")                                               \
        DO_PRAGMA(omp critical(fresh_##K))                                   \
        body();                                                              \
    }
#define FRESH8(P) FRESH(P##0) FRESH(P##1) FRESH(P##2) FRESH(P##3) FRESH(P##4) FRESH(P##5) FRESH(P##6) FRESH(P##7)

int main(void) {
    int team = 0;

    // Unnamed.
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        team = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
#pragma omp critical
            body();
        }
    }
    const long want = (long)team * ITERS;
    CHECK(counter == want, "unnamed: %ld != %ld", counter, want);

    // One name used from two functions is one lock.
    counter = 0;
#pragma omp parallel num_threads(4)
    for (int i = 0; i < ITERS; i++) {
        if ((i + omp_get_thread_num()) % 2)
            orphaned_a();
        else
            orphaned_b();
    }
    CHECK(counter == want, "shared name: %ld", counter);

    // Distinct names do not exclude each other: thread 0 holds `first` until thread 1
    // has been inside `second` (bounded wait: a shared lock would fail, not hang).
    volatile int entered_second = 0;
    int independent = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical(first)
            {
                double t0 = omp_get_wtime();
                while (!entered_second && omp_get_wtime() - t0 < 10.0) {
                }
                independent = entered_second;
            }
        } else if (omp_get_thread_num() == 1) {
            double t0 = omp_get_wtime();
            while (omp_get_wtime() - t0 < 0.01) {
            }
#pragma omp critical(second)
            entered_second = 1;
        }
    }
    CHECK(independent == 1 || team < 2, "critical(first) blocked critical(second)");

    // Hints: every hint gives a correct critical section.
    CHECK(run_h_none() == want, "hint none");
    CHECK(run_h_uncontended() == want, "hint uncontended");
    CHECK(run_h_contended() == want, "hint contended");
    CHECK(run_h_speculative() == want, "hint speculative");
    CHECK(run_h_nonspeculative() == want, "hint nonspeculative");
    CHECK(run_h_cont_spec() == want, "hint contended|speculative");
    CHECK(run_h_uncont_nonspec() == want, "hint uncontended|nonspeculative");

    // Lazily installed locks, raced by all threads.
    counter = 0;
#pragma omp parallel num_threads(4)
    {
        FRESH8(a) FRESH8(b) FRESH8(c) FRESH8(d)
    }
    CHECK(counter == 32L * team, "fresh names: %ld", counter);

    // One name excludes across nested teams (the lock is global to the program).
    omp_set_max_active_levels(2);
    counter = 0;
    int inner_teams = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            {
#pragma omp atomic
                inner_teams++;
            }
            for (int i = 0; i < ITERS / 2; i++) {
#pragma omp critical(across_teams)
                body();
            }
        }
    }
    (void)inner_teams;
    CHECK(overlaps == 0, "%d overlapping critical sections", overlaps);
    CHECK(counter % (ITERS / 2) == 0 && counter >= ITERS / 2, "nested teams: %ld", counter);

    if (failures == 0) printf("critical_sections: all passed\n");
    return failures == 0 ? 0 : 1;
}
