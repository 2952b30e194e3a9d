// omp_init_lock_with_hint / omp_init_nest_lock_with_hint with every valid hint
// (none, uncontended, contended, speculative, nonspeculative and their combinations,
// and libomp's hle/rtm/adaptive extension values): each hinted lock is a correct lock
// under contention; a hint changes how a waiter waits, never what the lock guarantees.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#define ITERS 5000
static int failures = 0;

static const struct {
    omp_sync_hint_t hint;
    const char* name;
} hints[] = {
    {omp_sync_hint_none, "none"},
    {omp_sync_hint_uncontended, "uncontended"},
    {omp_sync_hint_contended, "contended"},
    {omp_sync_hint_nonspeculative, "nonspeculative"},
    {omp_sync_hint_speculative, "speculative"},
    {omp_sync_hint_contended | omp_sync_hint_speculative, "contended|speculative"},
    {omp_sync_hint_uncontended | omp_sync_hint_nonspeculative, "uncontended|nonspeculative"},
    {omp_sync_hint_contended | omp_sync_hint_nonspeculative, "contended|nonspeculative"},
    {omp_sync_hint_uncontended | omp_sync_hint_speculative, "uncontended|speculative"},
    {(omp_sync_hint_t)kmp_lock_hint_hle, "kmp hle"},
    {(omp_sync_hint_t)kmp_lock_hint_rtm, "kmp rtm"},
    {(omp_sync_hint_t)kmp_lock_hint_adaptive, "kmp adaptive"},
};

static void bump(volatile long* p) {
    long v = *p;
    for (volatile int k = 0; k < 4; k++) {
    }
    *p = v + 1;
}

int main(void) {
    for (unsigned h = 0; h < sizeof hints / sizeof hints[0]; h++) {
        omp_lock_t l;
        omp_nest_lock_t nl;
        omp_init_lock_with_hint(&l, hints[h].hint);
        omp_init_nest_lock_with_hint(&nl, hints[h].hint);
        volatile long a = 0, b = 0;
        int team = 0;
#pragma omp parallel num_threads(4)
        {
#pragma omp single
            team = omp_get_num_threads();
            for (int i = 0; i < ITERS; i++) {
                omp_set_lock(&l);
                bump(&a);
                omp_unset_lock(&l);
                omp_set_nest_lock(&nl);
                if (omp_test_nest_lock(&nl) != 2) {
#pragma omp atomic
                    failures++;
                }
                bump(&b);
                omp_unset_nest_lock(&nl);
                omp_unset_nest_lock(&nl);
            }
        }
        if (a != (long)team * ITERS || b != (long)team * ITERS) {
            printf("FAIL hint %s: %ld %ld (want %ld)\n", hints[h].name, a, b, (long)team * ITERS);
            failures++;
        }
        omp_destroy_lock(&l);
        omp_destroy_nest_lock(&nl);
    }
    if (failures == 0) printf("lock_hints: all passed\n");
    return failures == 0 ? 0 : 1;
}
