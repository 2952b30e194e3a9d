// Race-free: chains of tasks ordered only by depend(out)/depend(in)/depend(inout):
// for each of K cells a producer writes, two readers read it into their own slots,
// then an inout task combines the slots back into the cell, STEPS times. The chains of
// different cells run concurrently on any thread. Without Archer, ThreadSanitizer sees
// no order between a task and its predecessors (the dependence release is in the
// runtime). Batches of cells are created behind a gate (gate.h).
#include <omp.h>
#include <stdio.h>

#include "gate.h"

#define K 64
#define BATCH 8
#define STEPS 4
static long cell[K], left[K], right[K];

int main(void) {
#pragma omp parallel num_threads(4)
    for (int b = 0; b < K / BATCH; b++) {
#pragma omp masked
        {
            for (int k = b * BATCH; k < (b + 1) * BATCH; k++) {
                for (int s = 0; s < STEPS; s++) {
#pragma omp task depend(out : cell[k]) firstprivate(k, s)
                    {
                        busy(2000);
                        cell[k] = cell[k] * 2 + s + k;
                    }
#pragma omp task depend(in : cell[k]) depend(out : left[k]) firstprivate(k)
                    left[k] = cell[k] + 1;
#pragma omp task depend(in : cell[k]) depend(out : right[k]) firstprivate(k)
                    right[k] = cell[k] + 2;
#pragma omp task depend(inout : cell[k]) depend(in : left[k], right[k]) firstprivate(k)
                    cell[k] = left[k] + right[k];
                }
            }
            gate_open(b);
        }
        gate_wait(b);
#pragma omp barrier
    }
    int bad = 0;
    for (int k = 0; k < K; k++) {
        long c = 0;
        for (int s = 0; s < STEPS; s++) {
            c = c * 2 + s + k;
            c = (c + 1) + (c + 2);
        }
        if (cell[k] != c) {
            printf("cell %d: %ld, expect %ld\n", k, cell[k], c);
            bad = 1;
        }
    }
    printf("depend: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
