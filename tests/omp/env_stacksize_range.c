// OMP_STACKSIZE below what a runtime supports: one warning naming the variable and
// the size used instead, and kmp_get_stacksize_s reports the size in force, not the
// request (10K here: loom uses 64K, libomp 16K). Before, loom clamped silently and the
// getter reported 10240.
// loom-test: env OMP_STACKSIZE=10
// loom-test: expect-stderr-loom OMP_STACKSIZE='10'.*using 64K
// loom-test: expect-stderr-libomp OMP_STACKSIZE
#include <omp.h>
#include <stddef.h>
#include <stdio.h>

#include "check.h"

size_t kmp_get_stacksize_s(void);

int main(void) {
    int ran = 0;
#pragma omp parallel num_threads(2) reduction(+ : ran)
    ran += 1;
    size_t s = kmp_get_stacksize_s();
    printf("stack size in force: %zu\n", s);
    CHECK(ran >= 1);
    CHECK(s != 10 * 1024);
    CHECK(s >= 16 * 1024);
    if (failures == 0) printf("env_stacksize_range: all passed\n");
    return failures != 0;
}
