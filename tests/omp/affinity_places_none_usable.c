// OMP_PLACES naming only processors the process may not use: a warning, and threads
// are not bound to places; the one place holds every processor of the process, as
// libomp ("No valid OS proc IDs specified - not using affinity"). Before, loom kept the
// places {4000} and {4001}.
// loom-test: setenv OMP_PLACES {4000},{4001}
// loom-test: expect-stderr-loom OMP_PLACES=.*names no processor this process may use
// loom-test: expect-stderr-libomp No valid OS proc IDs
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    CHECK(omp_get_num_places() == 1);
    CHECK(omp_get_place_num_procs(0) == CPU_COUNT(&set));
    int ok = 1;
#pragma omp parallel reduction(&& : ok)
    {
        cpu_set_t mine;
        CPU_ZERO(&mine);
        ok = sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_EQUAL(&mine, &set);
    }
    CHECK(ok);
    if (failures == 0) printf("affinity_places_none_usable: all passed\n");
    return failures != 0;
}
