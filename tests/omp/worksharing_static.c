// Static worksharing loops for every bound type (4, 4u, 8, 8u): block and chunked,
// zero-trip and single-iteration loops, negative strides, chunk 1 and chunk larger than
// the range, unsigned 64-bit bounds near the limits, lastprivate, collapse, sections,
// orphaned loops.
// loom-test: threads 3
#include <limits.h>
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

#define N 1000
static int hits[N];

static void reset(void) { memset(hits, 0, sizeof hits); }
static int all_once(int n) {
    for (int i = 0; i < n; ++i)
        if (hits[i] != 1) return 0;
    for (int i = n; i < N; ++i)
        if (hits[i] != 0) return 0;
    return 1;
}

static void orphaned(int n) {
#pragma omp for schedule(static, 7)
    for (int i = 0; i < n; ++i) {
#pragma omp atomic
        hits[i]++;
    }
}

int main(void) {
    int chunks[] = {0, 1, 2, 7, 999, 5000};
    int sizes[] = {0, 1, 2, 3, 4, 17, 1000};
    for (unsigned c = 0; c < sizeof chunks / sizeof *chunks; ++c) {
        for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
            int n = sizes[s], ch = chunks[c];
            reset();
            if (ch == 0) {
#pragma omp parallel for schedule(static)
                for (int i = 0; i < n; ++i) hits[i]++;
            } else {
#pragma omp parallel for schedule(static, ch)
                for (int i = 0; i < n; ++i) hits[i]++;
            }
            CHECK(all_once(n));
            // unsigned 32-bit, negative stride
            reset();
#pragma omp parallel for schedule(static, ch > 0 ? ch : 1)
            for (unsigned i = (unsigned)n; i > 0; --i) hits[i - 1]++;
            CHECK(all_once(n));
            // signed 64-bit, stride 3
            reset();
#pragma omp parallel for schedule(static)
            for (long long i = 0; i < 3LL * n; i += 3) hits[i / 3]++;
            CHECK(all_once(n));
        }
    }

    // unsigned 64-bit near the top of the range
    reset();
    uint64_t top = UINT64_MAX - 5;
#pragma omp parallel for schedule(static, 2)
    for (uint64_t i = top - 100; i <= top; ++i) {
#pragma omp atomic
        hits[i - (top - 100)]++;
    }
    CHECK(all_once(101));
    reset();
#pragma omp parallel for schedule(static)
    for (uint64_t i = UINT64_MAX; i > UINT64_MAX - 50; --i) {
#pragma omp atomic
        hits[UINT64_MAX - i]++;
    }
    CHECK(all_once(50));
    // signed 32-bit around INT_MIN / INT_MAX
    reset();
#pragma omp parallel for schedule(static, 3)
    for (int i = INT_MAX - 20; i < INT_MAX; ++i) hits[i - (INT_MAX - 20)]++;
    CHECK(all_once(20));
    reset();
#pragma omp parallel for schedule(static)
    for (int i = INT_MIN; i < INT_MIN + 30; i += 2) hits[(i - INT_MIN) / 2]++;
    CHECK(all_once(15));

    // lastprivate takes the value of the sequentially last iteration.
    for (int n = 1; n < 20; ++n) {
        int last = -1;
#pragma omp parallel for lastprivate(last) schedule(static, 2)
        for (int i = 0; i < n; ++i) last = i;
        CHECK(last == n - 1);
        int last2 = -1;
#pragma omp parallel for lastprivate(last2) schedule(static)
        for (int i = 0; i < n; ++i) last2 = i;
        CHECK(last2 == n - 1);
    }

    // collapse(2)
    static int grid[13][11];
#pragma omp parallel for collapse(2) schedule(static, 5)
    for (int i = 0; i < 13; ++i)
        for (int j = 0; j < 11; ++j) grid[i][j]++;
    for (int i = 0; i < 13; ++i)
        for (int j = 0; j < 11; ++j) CHECK(grid[i][j] == 1);

    // sections, with lastprivate and nowait
    int sec[5] = {0}, lastsec = -1;
#pragma omp parallel
    {
#pragma omp sections lastprivate(lastsec)
        {
#pragma omp section
            { sec[0]++; lastsec = 0; }
#pragma omp section
            { sec[1]++; lastsec = 1; }
#pragma omp section
            { sec[2]++; lastsec = 2; }
#pragma omp section
            { sec[3]++; lastsec = 3; }
#pragma omp section
            { sec[4]++; lastsec = 4; }
        }
#pragma omp sections nowait
        {
#pragma omp section
            {
#pragma omp atomic
                sec[0]++;
            }
#pragma omp section
            {
#pragma omp atomic
                sec[1]++;
            }
        }
    }
    CHECK(sec[0] == 2 && sec[1] == 2 && sec[2] == 1 && sec[3] == 1 && sec[4] == 1);
    CHECK(lastsec == 4);

    // orphaned loop, inside and outside a region
    reset();
#pragma omp parallel
    orphaned(100);
    CHECK(all_once(100));
    reset();
    orphaned(100);
    CHECK(all_once(100));

    // nowait loops back to back
    reset();
#pragma omp parallel
    {
#pragma omp for nowait schedule(static, 3)
        for (int i = 0; i < 500; ++i) hits[i]++;
#pragma omp for nowait schedule(static)
        for (int i = 500; i < 1000; ++i) hits[i]++;
    }
    CHECK(all_once(1000));

    if (failures) return 1;
    printf("ok\n");
    return 0;
}
