// Parallel regions: num_threads, if, serialized regions, nesting levels, ancestors,
// max-active-levels, 10^5 regions in a loop.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

int main(void) {
    CHECK(omp_get_max_threads() == 4);
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0 && !omp_in_parallel());
    int seen[4] = {0};
#pragma omp parallel
    {
        CHECK(omp_get_num_threads() == 4);
        CHECK(omp_in_parallel());
        CHECK(omp_get_level() == 1 && omp_get_active_level() == 1);
        int t = omp_get_thread_num();
        CHECK(t >= 0 && t < 4);
#pragma omp atomic
        seen[t]++;
        CHECK(omp_get_ancestor_thread_num(1) == t && omp_get_ancestor_thread_num(0) == 0);
        CHECK(omp_get_team_size(1) == 4 && omp_get_team_size(0) == 1);
        CHECK(omp_get_ancestor_thread_num(2) == -1 && omp_get_team_size(-1) == -1);
    }
    for (int i = 0; i < 4; ++i) CHECK(seen[i] == 1);

    int n = 0;
#pragma omp parallel num_threads(3) reduction(+ : n)
    n += 1;
    CHECK(n == 3);

    int cond = 0;
#pragma omp parallel if (cond)
    {
        CHECK(omp_get_num_threads() == 1);
        CHECK(omp_get_level() == 1 && omp_get_active_level() == 0 && !omp_in_parallel());
    }
#pragma omp parallel num_threads(1)
    CHECK(omp_get_num_threads() == 1 && omp_get_level() == 1);

    // Nesting disabled by default (max-active-levels 1): inner regions are serialized.
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
            CHECK(omp_get_num_threads() == 1);
            CHECK(omp_get_level() == 2 && omp_get_active_level() == 1);
            CHECK(omp_get_team_size(1) == 2);
        }
    }
    omp_set_max_active_levels(2);
    CHECK(omp_get_max_active_levels() == 2);
    int inner_total = 0;
#pragma omp parallel num_threads(2) reduction(+ : inner_total)
    {
        int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2) reduction(+ : inner_total)
        {
            // A pool may lend the inner region fewer threads than asked (the thread-limit
            // rule); a one-thread region is inactive, so the active level depends on it.
            CHECK(omp_get_level() == 2);
            CHECK(omp_get_active_level() == (omp_get_num_threads() > 1 ? 2 : 1));
            CHECK(omp_get_ancestor_thread_num(1) == outer);
            CHECK(omp_get_team_size(2) == omp_get_num_threads());
            inner_total += 1;
#pragma omp parallel num_threads(2)
            CHECK(omp_get_num_threads() == 1 && omp_get_level() == 3);  // third level off
        }
    }
    CHECK(inner_total >= 2 && inner_total <= 4);

    // omp_set_num_threads inside a region affects only the nested regions of that task.
#pragma omp parallel num_threads(2)
    {
        omp_set_num_threads(1);
        CHECK(omp_get_max_threads() == 1);
    }
    CHECK(omp_get_max_threads() == 4);

    // Many regions in a loop (fork/join cost and hot team reuse).
    long sum = 0;
    for (int r = 0; r < 100000; ++r) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += omp_get_thread_num() + 1;
    }
    CHECK(sum == 300000);

    // Alternating team sizes.
    for (int r = 0; r < 2000; ++r) {
        int want = 1 + r % 4, got = 0;
#pragma omp parallel num_threads(want)
        {
#pragma omp single
            got = omp_get_num_threads();
        }
        CHECK(got == want);
    }
    if (failures) return 1;
    printf("ok\n");
    return 0;
}
