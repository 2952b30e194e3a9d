// Race-free: nested tasks. A parent task writes its input, creates children that read
// it (task creation orders the parent's writes before them) and write their own slots,
// a grandchild per child overwrites the input after the child's read, and the parent
// combines the slots after taskwait. The parents are created behind a gate (gate.h)
// and waited for at the barrier. Without Archer, ThreadSanitizer does not see task
// creation or taskwait ordering the accesses.
#include <omp.h>
#include <stdio.h>

#include "gate.h"

#define P 16
#define C 4
static int input[P][C], out[P][C];
static long combined[P];

int main(void) {
#pragma omp parallel num_threads(4)
    {
#pragma omp masked
        {
            for (int p = 0; p < P; p++) {
#pragma omp task firstprivate(p)
                {
                    for (int c = 0; c < C; c++) input[p][c] = p + c;
                    for (int c = 0; c < C; c++) {
#pragma omp task firstprivate(p, c)
                        {
                            busy(1000);
                            out[p][c] = input[p][c] * 2;
#pragma omp task firstprivate(p, c)
                            input[p][c] = 0;  // a grandchild: after the child's read
#pragma omp taskwait
                        }
                    }
#pragma omp taskwait
                    long s = 0;
                    for (int c = 0; c < C; c++) s += out[p][c] + input[p][c];
                    combined[p] = s;
                }
            }
            gate_open(0);
        }
        gate_wait(0);
    }
    int bad = 0;
    for (int p = 0; p < P; p++) bad |= combined[p] != 2L * (C * p + C * (C - 1) / 2);
    printf("nested_tasks: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
