// OMP_PLACES naming processors the process may not use: they are dropped from their
// places with one warning naming them, a place left empty is dropped (libomp: "Ignoring
// invalid OS proc ID"). Before, loom kept them: places {4000} and {0,4001} existed
// and binding a thread to them failed silently.
// loom-test: setenv OMP_PLACES {0},{4000},{0,4001}
// loom-test: expect-stderr-loom OMP_PLACES=.*may not use \(4000, 4001\)
// loom-test: expect-stderr-libomp Ignoring invalid OS proc ID 4000
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || !CPU_ISSET(0, &set)) {
        printf("affinity_places_absent: processor 0 is not ours, nothing to check\n");
        return 0;
    }
    CHECK(omp_get_num_places() == 2);
    for (int p = 0; p < omp_get_num_places() && p < 2; ++p) {
        int ids[4] = {-1, -1, -1, -1};
        CHECK(omp_get_place_num_procs(p) == 1);
        omp_get_place_proc_ids(p, ids);
        CHECK(ids[0] == 0);
    }
    if (failures == 0) printf("affinity_places_absent: all passed\n");
    return failures != 0;
}
