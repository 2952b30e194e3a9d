// Doacross loops with one-dimensional sink vectors: ordered(1) with depend(sink: i-1),
// a loop counting down (sink i+1), a dynamic schedule, a sink two back, a sequence of
// nowait doacross loops, and the runtime entry points called directly with dimensions
// of negative stride. Every result is checked against a serial run.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define N 4000
static long a[N], ref[N];

// Each value depends on the previous one: any reordering changes the result.
static long step(long prev, int i) { return (prev * 31 + i) % 1000003; }

static void serial_up(int lag) {
    for (int i = 0; i < N; ++i) ref[i] = step(i >= lag ? ref[i - lag] : 7, i);
}

static void check_up(const char* what) {
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += a[i] != ref[i];
    if (bad) printf("%s: %d values differ from the serial run\n", what, bad);
    CHECK(bad == 0);
}

static void sink_previous_static(void) {
    memset(a, 0, sizeof a);
#pragma omp parallel
#pragma omp for ordered(1)
    for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 1)
        a[i] = step(i >= 1 ? a[i - 1] : 7, i);
#pragma omp ordered depend(source)
    }
    serial_up(1);
    check_up("static, sink i-1");
}

static void sink_previous_dynamic(void) {
    memset(a, 0, sizeof a);
#pragma omp parallel
#pragma omp for ordered(1) schedule(dynamic, 3)
    for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 1)
        a[i] = step(i >= 1 ? a[i - 1] : 7, i);
#pragma omp ordered depend(source)
    }
    serial_up(1);
    check_up("dynamic, sink i-1");
}

static void sink_two_back(void) {
    memset(a, 0, sizeof a);
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 1)
    for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 2)
        a[i] = step(i >= 2 ? a[i - 2] : 7, i);
#pragma omp ordered depend(source)
    }
    serial_up(2);
    check_up("static,1, sink i-2");
}

// Counting down: the sink is the iteration before in loop order, i + 1.
static void sink_counting_down(void) {
    memset(a, 0, sizeof a);
#pragma omp parallel
#pragma omp for ordered(1) schedule(dynamic)
    for (int i = N - 1; i >= 0; --i) {
#pragma omp ordered depend(sink : i + 1)
        a[i] = step(i + 1 < N ? a[i + 1] : 7, i);
#pragma omp ordered depend(source)
    }
    for (int i = N - 1; i >= 0; --i) ref[i] = step(i + 1 < N ? ref[i + 1] : 7, i);
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += a[i] != ref[i];
    CHECK(bad == 0);
}

// Several doacross loops in a row without barriers (each its own array, so members that
// run ahead into the next loop do not race with the loop they left).
#define ROUNDS 12
static long seq[ROUNDS][N], seq_ref[ROUNDS][N];
static void nowait_sequence(void) {
    memset(seq, 0, sizeof seq);
#pragma omp parallel
    {
        for (int round = 0; round < ROUNDS; ++round) {
            long* x = seq[round];
#pragma omp for ordered(1) schedule(dynamic, 7) nowait
            for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 1)
                x[i] = step(i >= 1 ? x[i - 1] : round, i);
#pragma omp ordered depend(source)
            }
        }
    }
    int bad = 0;
    for (int round = 0; round < ROUNDS; ++round)
        for (int i = 0; i < N; ++i) {
            seq_ref[round][i] = step(i >= 1 ? seq_ref[round][i - 1] : round, i);
            bad += seq[round][i] != seq_ref[round][i];
        }
    CHECK(bad == 0);
}

// The entry points directly, as a compiler could call them with raw bounds: the loop
// runs i = 2N, 2N-2, ..., 2 (stride -2); each iteration waits for i + 2.
struct kmp_dim {
    long long lo, up, st;
};
extern void __kmpc_doacross_init(void*, int, int, const struct kmp_dim*);
extern void __kmpc_doacross_wait(void*, int, const long long*);
extern void __kmpc_doacross_post(void*, int, const long long*);
extern void __kmpc_doacross_fini(void*, int);
extern int __kmpc_global_thread_num(void*);

static void raw_negative_stride(void) {
    memset(a, 0, sizeof a);
    struct kmp_dim dim = {2LL * N, 2, -2};
#pragma omp parallel
    {
        int gtid = __kmpc_global_thread_num(NULL);
        __kmpc_doacross_init(NULL, gtid, 1, &dim);
#pragma omp for schedule(dynamic) nowait
        for (int i = 2 * N; i >= 2; i -= 2) {
            long long v = i + 2;  // out of range for the first iteration: no wait
            __kmpc_doacross_wait(NULL, gtid, &v);
            int k = i / 2 - 1;
            a[k] = step(k + 1 < N ? a[k + 1] : 7, k);
            v = i;
            __kmpc_doacross_post(NULL, gtid, &v);
        }
        __kmpc_doacross_fini(NULL, gtid);
    }
    for (int k = N - 1; k >= 0; --k) ref[k] = step(k + 1 < N ? ref[k + 1] : 7, k);
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += a[i] != ref[i];
    CHECK(bad == 0);
}

int main(void) {
    for (int rep = 0; rep < 5; ++rep) {
        sink_previous_static();
        sink_previous_dynamic();
        sink_two_back();
        sink_counting_down();
        nowait_sequence();
        raw_negative_stride();
    }
    if (failures) return 1;
    printf("doacross_1d: all passed\n");
    return 0;
}
