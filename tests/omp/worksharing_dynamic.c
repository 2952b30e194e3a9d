// Dynamic, guided, auto and runtime schedules (monotonic and nonmonotonic) through the
// dispatch interface, for every bound type; ordered loops; nowait chains.
// loom-test: threads 3
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

#define N 2000
static int hits[N];
static void reset(void) { memset(hits, 0, sizeof hits); }
static int all_once(int n) {
    for (int i = 0; i < n; ++i)
        if (hits[i] != 1) return 0;
    for (int i = n; i < N; ++i)
        if (hits[i] != 0) return 0;
    return 1;
}

#define DO_PRAGMA(x) _Pragma(#x)
#define PFOR(S) DO_PRAGMA(omp parallel for S)
#define PFOR_ORDERED(S) DO_PRAGMA(omp parallel for ordered S)
#define LOOPS(SCHED)                                                                     \
    do {                                                                                 \
        reset();                                                                         \
        PFOR(SCHED) for (int i = 0; i < n; ++i) {                 \
            _Pragma("omp atomic") hits[i]++;                                             \
        }                                                                                \
        CHECK(all_once(n));                                                              \
        reset();                                                                         \
        PFOR(SCHED) for (unsigned i = n; i > 0; i--) {            \
            _Pragma("omp atomic") hits[i - 1]++;                                         \
        }                                                                                \
        CHECK(all_once(n));                                                              \
        reset();                                                                         \
        PFOR(SCHED) for (long long i = -2LL * n; i < 0; i += 2) { \
            _Pragma("omp atomic") hits[(i + 2LL * n) / 2]++;                             \
        }                                                                                \
        CHECK(all_once(n));                                                              \
        reset();                                                                         \
        PFOR(SCHED) for (uint64_t i = UINT64_MAX; i > UINT64_MAX - n; --i) {       \
            _Pragma("omp atomic") hits[UINT64_MAX - i]++;                                \
        }                                                                                \
        CHECK(all_once(n));                                                              \
    } while (0)

int main(void) {
    int sizes[] = {0, 1, 2, 5, 64, 1999};
    for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        int n = sizes[s];
        LOOPS(schedule(dynamic));
        LOOPS(schedule(dynamic, 1));
        LOOPS(schedule(dynamic, 7));
        LOOPS(schedule(dynamic, 5000));
        LOOPS(schedule(monotonic: dynamic, 3));
        LOOPS(schedule(nonmonotonic: dynamic, 3));
        LOOPS(schedule(guided));
        LOOPS(schedule(guided, 4));
        LOOPS(schedule(monotonic: guided));
        LOOPS(schedule(auto));
        LOOPS(schedule(runtime));
        LOOPS(schedule(monotonic: static, 2));
    }

    // ordered: the ordered regions run in iteration order, whatever the schedule.
    const char* names[] = {"static", "static,3", "dynamic", "dynamic,4", "guided"};
    for (int k = 0; k < 5; ++k) {
        int next = 0, bad = 0;
#define ORDERED(SCHED)                                                       \
    PFOR_ORDERED(SCHED) for (int i = 0; i < 300; ++i) { \
        if (i % 3 == 0) {                                                    \
            _Pragma("omp ordered") {                                         \
                if (next != i) bad = 1;                                      \
                next = i + 3;                                                \
            }                                                                \
        }                                                                    \
    }
        switch (k) {
            case 0: ORDERED(schedule(static)) break;
            case 1: ORDERED(schedule(static, 3)) break;
            case 2: ORDERED(schedule(dynamic)) break;
            case 3: ORDERED(schedule(dynamic, 4)) break;
            default: ORDERED(schedule(guided)) break;
        }
        if (bad || next != 300) fprintf(stderr, "ordered %s broken\n", names[k]);
        CHECK(!bad && next == 300);
    }

    // Many nowait dynamic loops in a row (more than the runtime's buffers).
    reset();
#pragma omp parallel
    {
        for (int b = 0; b < 20; ++b) {
#pragma omp for schedule(dynamic, 3) nowait
            for (int i = b * 100; i < (b + 1) * 100; ++i) {
#pragma omp atomic
                hits[i]++;
            }
        }
    }
    CHECK(all_once(2000));

    // Orphaned dynamic loop called serially.
    reset();
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < 10; ++i) hits[i]++;
    CHECK(all_once(10));

    if (failures) return 1;
    printf("ok\n");
    return 0;
}
