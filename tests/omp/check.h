/* The check that the OpenMP test programs share: a failed condition prints its file,
 * line and text on stdout and counts a failure; main returns non-zero when any did.
 * Included by one source file each (the counter is static). */
#ifndef LOOM_TESTS_OMP_CHECK_H
#define LOOM_TESTS_OMP_CHECK_H

#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

#endif
