// KMP_HOT_TEAMS_MAX_LEVEL=2 makes nested teams hot, as on libomp: the members of an
// inner team stay its own between two of its regions, through a serial gap far longer
// than loom's adaptive lingering, and while another inner team's region wants one
// thread more than are free (that region gets a new thread instead of taking them).
// Shown by OMP_DISPLAY_AFFINITY: a thread prints its line again only when its team
// looks different to it, so the first inner team's second region prints nothing.
// Without hot teams on loom, the other team took the lingering members and the first
// team's second region printed their lines again (the flaky LLVM affinity/format/
// nested2.c shows the same under load). The program captures its own stdout.
// loom-test: env OMP_DISPLAY_AFFINITY=true KMP_HOT_TEAMS_MAX_LEVEL=2
// loom-test: threads 2
// loom-test: compilers clang
// loom-test: runtimes loom libomp
// loom-test: timeout 60
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

static int count_lines(const char* out, const char* line) {
    int n = 0;
    for (const char* p = out; (p = strstr(p, line)) != NULL; p += strlen(line)) ++n;
    return n;
}

int main(void) {
    struct stdout_capture capture;
    if (stdout_capture_begin(&capture) != 0) return 2;

    omp_set_affinity_format("L%L N%N");
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {                // L1 N2 twice
        region(3);   // both inner teams: L2 N3, six lines
#pragma omp barrier
        if (omp_get_thread_num() == 1)
            region(4);  // L2 N4 four times: one thread more than its team had
        else
            usleep(30 * 1000);  // the first team's members wait through the gap
#pragma omp barrier
        if (omp_get_thread_num() == 0) region(3);  // the same team again: nothing
    }

    char out[4096];
    const ssize_t len = stdout_capture_end(&capture, out, sizeof out);
    if (len < 0) return 2;
    int failures = 0;
    const struct {
        const char* line;
        int times;
    } want[] = {{"L1 N2\n", 2}, {"L2 N3\n", 6}, {"L2 N4\n", 4}};
    size_t total = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        total += strlen(want[i].line) * (size_t)want[i].times;
        const int got = count_lines(out, want[i].line);
        if (got != want[i].times) {
            printf("FAIL: '%.*s' %d times, expected %d\n", (int)strlen(want[i].line) - 1,
                   want[i].line, got, want[i].times);
            ++failures;
        }
    }
    if ((size_t)len != total) {
        printf("FAIL: expected %zu bytes of display, got %zd:\n%s", total, len, out);
        ++failures;
    }
    if (entered != 2 * 3 + 4 + 3) {
        printf("FAIL: %d implicit tasks ran, expected %d\n", entered, 2 * 3 + 4 + 3);
        ++failures;
    }
    if (failures) return 1;
    printf("hot_teams_keep_members: all passed\n");
    return 0;
}
