// A team of 1500 threads (above the old 1024 cap, within the documented limit of 4096)
// gets all 1500, as under libomp; before, the pool stayed at its size and the region
// got the 2 workers of this machine silently. A request above 4096 is cut to 4096 with
// one warning naming it (not run here: 4096 threads are too many for a CI machine).
// loom-test: timeout 300
// 1500 members leave their team at exit: seconds on a loaded machine under ThreadSanitizer
// (once past the exit drain's 5 s bound beside a CPU hog); that bound is not checked here.
// loom-test: env-loom LOOM_EXIT_TIMEOUT=120
#include <omp.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    int team = 0, counted = 0;
#pragma omp parallel num_threads(1500)
    {
#pragma omp single
        team = omp_get_num_threads();
#pragma omp atomic
        counted++;
    }
    CHECK(team == 1500);
    CHECK(counted == 1500);
    printf("team=%d counted=%d\n", team, counted);
    if (failures == 0) printf("team_above_1024: all passed\n");
    return failures != 0;
}
