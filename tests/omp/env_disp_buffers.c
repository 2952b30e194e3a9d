// KMP_DISP_NUM_BUFFERS below its range: libomp's warning (#80) and info (#106) lines,
// then one dispatch buffer per team. Many dynamic loops with nowait in a row must still
// be correct when they all share that buffer (members wait for it to come free).
// loom-test: threads 4
// loom-test: env KMP_DISP_NUM_BUFFERS=0
// loom-test: expect-stderr OMP: Warning #80: KMP_DISP_NUM_BUFFERS="0": value too small
// loom-test: expect-stderr OMP: Info #106: KMP_DISP_NUM_BUFFERS value "1" will be used
#include <omp.h>
#include <stdio.h>

enum { LOOPS = 64, N = 1000 };
static int hits[LOOPS][N];

int main(void) {
#pragma omp parallel
    {
        for (int l = 0; l < LOOPS; ++l) {
#pragma omp for schedule(dynamic, 3) nowait
            for (int i = 0; i < N; ++i) hits[l][i] += 1;
        }
    }
    for (int l = 0; l < LOOPS; ++l)
        for (int i = 0; i < N; ++i)
            if (hits[l][i] != 1) {
                printf("loop %d iteration %d ran %d times\n", l, i, hits[l][i]);
                return 1;
            }
    printf("env_disp_buffers: all passed\n");
    return 0;
}
