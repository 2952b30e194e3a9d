// A num_threads clause larger than the default team gets its team and leaves
// nthreads-var as it was: omp_get_max_threads() and the regions without the clause keep
// the default. loom grows its pool for such a team and took the default from the
// pool's size at each call, so after a num_threads(4) region on 2 CPUs
// omp_get_max_threads() answered 4 and every later region ran 4 threads.
#include <omp.h>

#include "check.h"

static int team_size(int asked) {
    int size = -1;
#pragma omp parallel num_threads(asked)
#pragma omp master
    size = omp_get_num_threads();
    return size;
}

static int default_team_size(void) {
    int size = -1;
#pragma omp parallel
#pragma omp master
    size = omp_get_num_threads();
    return size;
}

int main(void) {
    const int n0 = omp_get_max_threads();
    CHECK(default_team_size() == n0);
    CHECK(team_size(n0 + 2) == n0 + 2);
    CHECK(omp_get_max_threads() == n0);
    CHECK(default_team_size() == n0);
    CHECK(team_size(2 * n0 + 3) == 2 * n0 + 3);
    CHECK(omp_get_max_threads() == n0);
    CHECK(default_team_size() == n0);
    return failures != 0;
}
