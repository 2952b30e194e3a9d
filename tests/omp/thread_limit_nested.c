// thread-limit-var bounds the whole contention group, not each team (OpenMP 5.2,
// 10.1.1: ThreadsAvailable = thread-limit-var - ThreadsBusy + 1). Under
// OMP_THREAD_LIMIT=6 a 5 x 5 x 2 nest must never run more than 6 threads at once, and
// regions that fit get their full size. Before, loom cut each team to the limit alone
// and the nest ran up to 50 threads (GCC's libgomp.c/thread-limit-1.c, clang build too).
// loom-test: env OMP_THREAD_LIMIT=6 OMP_NUM_THREADS=2
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int failures = 0;
#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);          \
            failures++;                                                           \
        }                                                                         \
    } while (0)

static int team_size(int request) {
    int n = 0;
#pragma omp parallel num_threads(request) shared(n)
#pragma omp single
    n = omp_get_num_threads();
    return n;
}

int main(void) {
    CHECK(omp_get_thread_limit() == 6);
    omp_set_dynamic(0);
    omp_set_max_active_levels(8);
    CHECK(team_size(3) == 3);
    CHECK(team_size(6) == 6);

    for (int round = 0; round < 5; ++round) {
        int running = 0, most = 0, innermost = 0;
#pragma omp parallel num_threads(5) shared(running, most, innermost)
#pragma omp parallel num_threads(5) shared(running, most, innermost)
#pragma omp parallel num_threads(2) shared(running, most, innermost)
        {
            int now;
#pragma omp atomic capture
            now = ++running;
#pragma omp critical
            {
                if (now > most) most = now;
                innermost++;
            }
            usleep(2000);
#pragma omp atomic
            --running;
        }
        if (most > 6) {
            printf("round %d: %d threads at once under OMP_THREAD_LIMIT=6\n", round, most);
            failures++;
        }
        CHECK(innermost >= 5 && innermost <= 50);
        // The limit is given back when the nest ends.
        CHECK(team_size(6) == 6);
    }

    if (failures) {
        printf("FAILED: %d checks\n", failures);
        return 1;
    }
    printf("thread_limit_nested: all passed\n");
    return 0;
}
