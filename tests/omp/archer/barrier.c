// Race-free: barrier-separated phases. Each phase every thread writes its own block of
// a shared array, and after an explicit barrier reads its neighbour's block, writes the
// next array, and so on; the implicit barrier of a worksharing loop separates the last
// phase. Without Archer, ThreadSanitizer does not see loom's barriers and reports the
// neighbour reads.
#include <omp.h>
#include <stdio.h>

#define T 4
#define B 256
#define PHASES 6
static int a[T * B], b[T * B];

int main(void) {
    int bad = 0;
#pragma omp parallel num_threads(T)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int p = 0; p < PHASES; p++) {
            for (int i = 0; i < B; i++) a[me * B + i] = p * 1000 + me;
#pragma omp barrier
            int next = (me + 1) % nt;
            for (int i = 0; i < B; i++) b[me * B + i] = a[next * B + i];
#pragma omp barrier
        }
#pragma omp for
        for (int i = 0; i < T * B; i++) a[i] = b[i] + 1;
        // the loop's implicit barrier: every element is final below
        int prev = (me + nt - 1) % nt;
        for (int i = 0; i < B; i++)
            if (a[prev * B + i] != (PHASES - 1) * 1000 + me + 1 && nt == T) {
#pragma omp atomic write
                bad = 1;
            }
    }
    printf("barrier: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
