// Race-free: taskgroup waits for the tasks of the group and all their descendants.
// Tasks created in a taskgroup create grandchildren that write a shared array; after
// the taskgroup the creator reads and rewrites it. Without Archer, ThreadSanitizer does
// not see the taskgroup's end ordering the descendants before the reads. (The children
// are created behind a gate, gate.h; the grandchildren capture nothing, below.)
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

#include "gate.h"

#define N 16
#define M 4
#define ROUNDS 3
static int grid[N][M];
static int round_now;
static atomic_int next_cell;

// A grandchild captures nothing (so no runtime's recycled task memory holds data the
// program wrote): it takes the next cell from a counter and adds to it; the round it
// reads was written before its ancestors were created.
static void grandchild(void) {
    busy(1000);
    int c = atomic_fetch_add_explicit(&next_cell, 1, memory_order_relaxed);
    grid[c / M][c % M] += round_now * (c / M + c % M);
}

int main(void) {
    long total = 0;
#pragma omp parallel num_threads(4)
    for (int r = 1; r <= ROUNDS; r++) {
#pragma omp masked
        {
            round_now = r;
            atomic_store_explicit(&next_cell, 0, memory_order_relaxed);
#pragma omp taskgroup
            {
                for (int i = 0; i < N; i++) {
#pragma omp task
                    {
                        busy(1000);
                        for (int j = 0; j < M; j++) {
#pragma omp task
                            grandchild();
                        }
                    }
                }
                gate_open(r);
            }
            for (int i = 0; i < N; i++)
                for (int j = 0; j < M; j++) total += grid[i][j];
        }
        gate_wait(r);
#pragma omp barrier
    }
    long base = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) base += i + j;
    long expect = base * (1 + 3 + 6);  // grid holds 1, then 1+2, then 1+2+3 times i+j
    int bad = total != expect;
    printf("taskgroup: total %ld (expect %ld): %s\n", total, expect, bad ? "FAILED" : "all passed");
    return bad;
}
