// The same misuse as lock_misuse.c with checks off (LOOM_CHECK_LOCKS=0, the default of
// release builds): nothing is printed, nothing crashes, nothing hangs. (Setting a lock
// one already holds is left out: without checks that deadlocks, as the specification
// allows.) loom only.
// loom-test: runtimes loom
// loom-test: env LOOM_CHECK_LOCKS=0
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>

typedef struct ident ident_t;
typedef int kmp_critical_name[8];
extern void __kmpc_critical(ident_t*, int, kmp_critical_name*);
extern void __kmpc_end_critical(ident_t*, int, kmp_critical_name*);

static int failures = 0;
#define CHECK(cond, what)                                               \
    do {                                                                \
        if (!(cond)) {                                                  \
            failures++;                                                 \
            printf("FAIL line %d: %s\n", __LINE__, what);               \
        }                                                               \
    } while (0)

int main(void) {
    omp_lock_t l;
    omp_init_lock(&l);
    omp_unset_lock(&l);
    CHECK(omp_test_lock(&l) == 1, "lock usable after a stray unset");
    omp_destroy_lock(&l);  // set
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
    omp_set_lock(&l);      // destroyed
    omp_unset_lock(&l);

    omp_lock_t z;
    memset(&z, 0, sizeof z);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    memset(&z, 0xab, sizeof z);
    CHECK(omp_test_lock(&z) == 1, "garbage lock taken over");
    omp_unset_lock(&z);
    memset(&z, 0xcd, sizeof z);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    omp_init_lock_with_hint(&z, omp_sync_hint_speculative | omp_sync_hint_nonspeculative);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    omp_destroy_lock(&z);

    omp_nest_lock_t n;
    memset(&n, 0, sizeof n);  // never initialised: initialised on first use
    CHECK(omp_test_nest_lock(&n) == 1, "zero nest lock");
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);  // not set
    omp_set_nest_lock(&n);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) omp_unset_nest_lock(&n);  // not the owner
    omp_destroy_nest_lock(&n);  // set
    omp_unset_nest_lock(&n);
    omp_destroy_nest_lock(&n);
    omp_destroy_nest_lock(&n);  // twice

    static kmp_critical_name crit;
    __kmpc_end_critical(NULL, 0, &crit);  // never entered
    long count = 0;
    int team = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        team = omp_get_num_threads();
        for (int i = 0; i < 1000; i++) {
            __kmpc_critical(NULL, 0, &crit);
            count++;
            __kmpc_end_critical(NULL, 0, &crit);
        }
    }
    CHECK(count == 1000L * team, "critical still excludes");
    __kmpc_end_critical(NULL, 0, &crit);  // not entered
    if (failures == 0) printf("lock_misuse_quiet: all passed\n");
    return failures == 0 ? 0 : 1;
}
