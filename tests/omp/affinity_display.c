// OMP_DISPLAY_AFFINITY: a thread prints its line (affinity-format-var, on stdout) at the
// start of an implicit task only when its team looks different to it from the last
// time it printed: nesting level or team size changed. Serialized regions count.
// The program captures its own stdout and checks which lines appeared.
// loom-test: env OMP_DISPLAY_AFFINITY=true
// loom-test: threads 2
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stdout_capture.h"

static int entered;

static void region(int n) {
#pragma omp parallel num_threads(n)
    {  // a body with an effect: clang -O2 deletes empty parallel regions
#pragma omp atomic
        ++entered;
    }
}

int main(void) {
    struct stdout_capture capture;
    if (stdout_capture_begin(&capture) != 0) return 2;

    omp_set_affinity_format("L%L N%N n%n");
    omp_set_max_active_levels(3);
    region(1);  // L1 N1
    region(1);  // nothing: same team shape
#pragma omp parallel num_threads(1)
    {  // nothing for the encountering thread: L1 N1 again
        region(1);  // L2 N1
        region(1);  // nothing
    }
    region(2);  // L1 N2 twice
    region(2);  // nothing
    omp_display_affinity("explicit %L");  // always printed

    char out[4096];
    const ssize_t len = stdout_capture_end(&capture, out, sizeof out);
    if (len < 0) return 2;
    const char* want[] = {"L1 N1 n0\n", "L2 N1 n0\n", "L1 N2 n0\n", "L1 N2 n1\n",
                          "explicit 0\n"};
    size_t total = 0;
    int failures = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        total += strlen(want[i]);
        if (!strstr(out, want[i])) {
            printf("FAIL: missing line '%.*s'\n", (int)strlen(want[i]) - 1, want[i]);
            ++failures;
        }
    }
    if ((size_t)len != total) {
        printf("FAIL: expected %zu bytes of display, got %zd:\n%s", total, len, out);
        ++failures;
    }
    if (failures) return 1;
    printf("affinity_display: all passed\n");
    return 0;
}
