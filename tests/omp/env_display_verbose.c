// OMP_DISPLAY_ENV=verbose also prints the KMP_ and LOOM_ settings loom honours: the spin
// budget as it is (loom's default adapts below 100 us; before, the display, which comes
// before the pool starts, read the scheduler's "no pool yet" as 'infinite') and
// KMP_HOT_TEAMS_MAX_LEVEL. loom's own lines, so loom only (libomp prints its own set).
// kmp_get_blocktime answers the same before the first region as after it (it read the
// same "no pool yet" as infinite: 2147483647, then 0).
// loom-test: runtimes loom
// loom-test: env OMP_DISPLAY_ENV=verbose OMP_NUM_THREADS=2 KMP_HOT_TEAMS_MAX_LEVEL=2
// loom-test: expect-stderr-loom \[host\] KMP_BLOCKTIME='adaptive, up to 100 us'.*\[host\] KMP_HOT_TEAMS_MAX_LEVEL='2'.*\[host\] LOOM_SPIN_US='adaptive, up to 100 us'
#include <omp.h>
#include <stdio.h>

// Weak: a gcc build links against GNU libgomp, which has no kmp_* routines.
extern int kmp_get_blocktime(void) __attribute__((weak));

int main(void) {
    const int before = kmp_get_blocktime ? kmp_get_blocktime() : 0;
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    const int after = kmp_get_blocktime ? kmp_get_blocktime() : 0;
    if (before != after) {
        printf("FAIL: kmp_get_blocktime %d before the first region, %d after\n", before, after);
        return 1;
    }
    printf("ok %d\n", n);
    return n == 2 ? 0 : 1;
}
