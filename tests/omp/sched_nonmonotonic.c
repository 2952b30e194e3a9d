// Nonmonotonic dynamic loops, which loom serves from per-member shares of the chunks
// with stealing (clang passes schedule(dynamic) as nonmonotonic since OpenMP 5.0):
// every iteration must be handed out exactly once, also when one member is held up at
// its first chunk so that the others steal its whole share, when members run far ahead
// through `nowait` loops that reuse the team's loop buffers, for 32- and 64-bit, signed
// and unsigned bounds with positive and negative strides, and with chunks larger than
// the range. A held-up member must not keep the others idle: with member 0 asleep for
// its first chunk, the others execute most of the iterations (true on every runtime).
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"

enum { N = 20000 };
static int hits[N];
static int owner[N];

static void nap_ms(int ms) {
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

static int each_once(int n) {
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += hits[i] != 1;
    return bad;
}

// Member 0 sleeps in its first iteration; everyone records who ran what.
static void held_up_member(int chunk) {
    memset(hits, 0, sizeof hits);
    int first = 1;
#pragma omp parallel firstprivate(first)
    {
#pragma omp for schedule(nonmonotonic : dynamic, chunk)
        for (int i = 0; i < N; ++i) {
            if (first && omp_get_thread_num() == 0) nap_ms(50);
            first = 0;
#pragma omp atomic
            hits[i]++;
            owner[i] = omp_get_thread_num();
        }
    }
    CHECK(each_once(N) == 0);
    int by_others = 0;
    for (int i = 0; i < N; ++i) by_others += owner[i] != 0;
    // Without stealing (or a shared counter), member 0's share would wait for it.
    if (omp_get_max_threads() > 1) CHECK(by_others > N / 2);
}

// Many back-to-back nowait loops: members run ahead into buffers others still use.
static void nowait_chain(void) {
    enum { LOOPS = 40, M = 500 };
    static int cnt[LOOPS][M];
    memset(cnt, 0, sizeof cnt);
#pragma omp parallel
    for (int l = 0; l < LOOPS; ++l) {
#pragma omp for schedule(dynamic, 1 + l % 7) nowait
        for (int i = 0; i < M; ++i) {
#pragma omp atomic
            cnt[l][i]++;
        }
    }
    int bad = 0;
    for (int l = 0; l < LOOPS; ++l)
        for (int i = 0; i < M; ++i) bad += cnt[l][i] != 1;
    CHECK(bad == 0);
}

static void bounds_and_strides(void) {
    // Signed 32-bit, negative stride.
    memset(hits, 0, sizeof hits);
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = N - 1; i >= 0; i -= 2) {
#pragma omp atomic
        hits[i]++;
    }
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += hits[i] != ((N - 1 - i) % 2 == 0);
    CHECK(bad == 0);

    // Unsigned 64-bit near the top of the range.
    memset(hits, 0, sizeof hits);
    const unsigned long long top = ~0ull - 5;
#pragma omp parallel for schedule(dynamic, 2)
    for (unsigned long long u = top - 999; u <= top; ++u) {
#pragma omp atomic
        hits[top - u]++;
    }
    CHECK(each_once(1000) == 0);

    // Signed 64-bit with a large stride; unsigned 32-bit.
    memset(hits, 0, sizeof hits);
#pragma omp parallel for schedule(dynamic, 5)
    for (long long v = -3000000000LL; v < -3000000000LL + 7LL * 1000; v += 7) {
#pragma omp atomic
        hits[(v + 3000000000LL) / 7]++;
    }
    CHECK(each_once(1000) == 0);
    memset(hits, 0, sizeof hits);
#pragma omp parallel for schedule(dynamic, 4)
    for (unsigned w = 4000000000u; w < 4000000000u + 1000u; ++w) {
#pragma omp atomic
        hits[w - 4000000000u]++;
    }
    CHECK(each_once(1000) == 0);

    // Chunk larger than the range, single iteration, zero trips.
    memset(hits, 0, sizeof hits);
#pragma omp parallel for schedule(dynamic, 100000)
    for (int i = 0; i < 777; ++i) {
#pragma omp atomic
        hits[i]++;
    }
    CHECK(each_once(777) == 0);
    int count = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count)
    for (int i = 5; i < 6; ++i) count++;
    CHECK(count == 1);
    count = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count)
    for (int i = 6; i < 6; ++i) count++;
    CHECK(count == 0);
}

int main(void) {
    for (int rep = 0; rep < 3; ++rep) {
        held_up_member(1);
        held_up_member(16);
        nowait_chain();
        bounds_and_strides();
    }
    if (failures) return 1;
    printf("sched_nonmonotonic: all passed\n");
    return 0;
}
