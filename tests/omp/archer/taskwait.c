// Race-free: a task reads what its children wrote only after taskwait. Each round the
// master creates tasks that fill an array (behind a gate, gate.h), waits for them with
// taskwait, sums the array and lets the next round's tasks add to it; a recursive
// Fibonacci keeps its children's results in the parent's locals. Without Archer,
// ThreadSanitizer does not see that taskwait orders the children before the parent's
// reads.
#include <omp.h>
#include <stdio.h>

#include "gate.h"

#define N 64
#define ROUNDS 4
static int slot[N];

static long fib(int n) {
    if (n < 2) return n;
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void) {
    long f = 0, total = 0;
#pragma omp parallel num_threads(4)
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp masked
        {
            for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i, r)
                {
                    busy(2000);
                    slot[i] += i * r;
                }
            }
            gate_open(r);
#pragma omp taskwait
            for (int i = 0; i < N; i++) total += slot[i];
            if (r == ROUNDS - 1) f = fib(10);
        }
        gate_wait(r);
#pragma omp barrier
    }
    // slot[i] after round r holds i*(0+..+r); total sums all rounds
    long expect = 0;
    for (int r = 0, acc = 0; r < ROUNDS; r++) {
        acc += r;
        expect += (long)acc * N * (N - 1) / 2;
    }
    int bad = f != 55 || total != expect;
    printf("taskwait: fib %ld, total %ld (expect %ld): %s\n", f, total, expect,
           bad ? "FAILED" : "all passed");
    return bad;
}
