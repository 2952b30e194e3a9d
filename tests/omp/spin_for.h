/* Busy work of about `us` microseconds for the OpenMP test programs (a task that takes
 * long enough to tempt a wrong order, without sleeping its thread). Included by one
 * source file each. */
#ifndef LOOM_TESTS_OMP_SPIN_FOR_H
#define LOOM_TESTS_OMP_SPIN_FOR_H

#include <omp.h>

static void spin(int us) {
    double t = omp_get_wtime() + us * 1e-6;
    while (omp_get_wtime() < t) {
    }
}

#endif
