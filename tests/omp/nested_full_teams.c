// Nested regions get the teams they ask for (OpenMP 5.2, 12.1.1 "Determining the
// Number of Threads for a parallel Region": ThreadsAvailable counts against
// thread-limit-var, not against the threads that happen to be idle). A 4 x 4 x 4 nest
// with num_threads clauses and no OMP_NUM_THREADS list must give 64 innermost
// implicit tasks in teams of 4, every time: the pool grows when a nested region asks
// for more workers than are free (before, the inner teams got whatever workers were
// free at that moment, 6 to 31 of the 64, varying from run to run).
// loom-test: env OMP_NUM_THREADS=2
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static int nest_4x4x4(void) {
    int innermost = 0, wrong_size = 0;
#pragma omp parallel num_threads(4) reduction(+ : innermost, wrong_size)
    {
        if (omp_get_num_threads() != 4) wrong_size++;
#pragma omp parallel num_threads(4) reduction(+ : innermost, wrong_size)
        {
            if (omp_get_num_threads() != 4) wrong_size++;
#pragma omp parallel num_threads(4) reduction(+ : innermost, wrong_size)
            {
                if (omp_get_num_threads() != 4 || omp_get_level() != 3 ||
                    omp_get_active_level() != 3)
                    wrong_size++;
                innermost++;
            }
        }
    }
    if (wrong_size) fprintf(stderr, "teams of the wrong size: %d\n", wrong_size);
    return innermost;
}

int main(void) {
    omp_set_max_active_levels(3);
    for (int round = 0; round < 20; ++round) CHECK(nest_4x4x4() == 64);

    // A nest wider than the first: the inner teams grow again, and the teams of the
    // previous nest still get their sizes afterwards.
    int inner = 0;
#pragma omp parallel num_threads(3) reduction(+ : inner)
#pragma omp parallel num_threads(6) reduction(+ : inner)
    {
        CHECK(omp_get_num_threads() == 6);
        inner++;
    }
    CHECK(inner == 18);
    CHECK(nest_4x4x4() == 64);

    // Beyond max-active-levels the innermost regions are inactive teams of one.
    omp_set_max_active_levels(2);
    int ones = 0;
#pragma omp parallel num_threads(2) reduction(+ : ones)
#pragma omp parallel num_threads(2) reduction(+ : ones)
#pragma omp parallel num_threads(4) reduction(+ : ones)
    {
        CHECK(omp_get_num_threads() == 1);
        ones++;
    }
    CHECK(ones == 4);

    if (failures) return 1;
    printf("nested_full_teams: ok\n");
    return 0;
}
