// OMP_DISPLAY_ENV=verbose also prints the KMP_ and LOOM_ settings loom honours: the spin
// budget as it is (loom's default adapts below 100 us; before, the display, which comes
// before the pool starts, read the scheduler's "no pool yet" as 'infinite') and
// KMP_HOT_TEAMS_MAX_LEVEL. loom's own lines, so loom only (libomp prints its own set).
// loom-test: runtimes loom
// loom-test: env OMP_DISPLAY_ENV=verbose OMP_NUM_THREADS=2 KMP_HOT_TEAMS_MAX_LEVEL=2
// loom-test: expect-stderr-loom \[host\] KMP_BLOCKTIME='adaptive, up to 100 us'.*\[host\] KMP_HOT_TEAMS_MAX_LEVEL='2'.*\[host\] LOOM_SPIN_US='adaptive, up to 100 us'
#include <omp.h>
#include <stdio.h>

int main(void) {
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    printf("ok %d\n", n);
    return n == 2 ? 0 : 1;
}
