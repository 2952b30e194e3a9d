// Lock and critical-section misuse that the OpenMP specification leaves undefined:
// with checks on (LOOM_CHECK_LOCKS=1; the default of debug builds) loom reports each
// case with one clear line on stderr and neither crashes nor hangs. loom only: libomp
// aborts or hangs on several of these.
// loom-test: runtimes loom
// loom-test: env LOOM_CHECK_LOCKS=1
// loom-test: threads 4
// loom-test: expect-stderr omp_unset_lock: the lock is not set
// loom-test: expect-stderr omp_destroy_lock: destroying a lock that is set
// loom-test: expect-stderr omp_set_lock: the lock is already set by this task
// loom-test: expect-stderr omp_unset_lock: the lock is set by another task
// loom-test: expect-stderr omp_set_lock: the lock was never initialised
// loom-test: expect-stderr omp_set_lock: the lock was destroyed
// loom-test: expect-stderr omp_set_lock: the lock is not initialised
// loom-test: expect-stderr omp_init_lock_with_hint: invalid synchronization hint
// loom-test: expect-stderr omp_unset_nest_lock: the nest lock is not set
// loom-test: expect-stderr omp_unset_nest_lock: the nest lock is set by another task
// loom-test: expect-stderr omp_destroy_nest_lock: destroying a nest lock that is set
// loom-test: expect-stderr __kmpc_end_critical: leaving a critical section
// loom-test: expect-stderr __kmpc_critical: this task is already inside this critical section
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

    // Unset of a lock that is not set: ignored.
    omp_unset_lock(&l);
    CHECK(omp_test_lock(&l) == 1, "lock usable after a stray unset");
    omp_unset_lock(&l);

    // Destroy of a set lock: reported, the lock stays as it is.
    omp_set_lock(&l);
    omp_destroy_lock(&l);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);

    // Setting a lock this task already holds would deadlock: reported, ignored.
    omp_init_lock(&l);
    omp_set_lock(&l);
    omp_set_lock(&l);
    omp_unset_lock(&l);
    int got = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) {
        got = omp_test_lock(&l);
        if (got) omp_unset_lock(&l);
    }
    CHECK(got == 1, "one unset releases the lock");

    // Unset by a task that does not hold it: reported, unset anyway.
    omp_set_lock(&l);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) omp_unset_lock(&l);
    CHECK(omp_test_lock(&l) == 1, "lock free after a foreign unset");
    omp_unset_lock(&l);
    omp_destroy_lock(&l);

    // A lock that was never initialised (all zero), one that was destroyed, and one
    // full of garbage: reported, and each still works as a lock.
    omp_lock_t z;
    memset(&z, 0, sizeof z);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    omp_init_lock(&z);
    omp_destroy_lock(&z);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    memset(&z, 0xab, sizeof z);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    CHECK(omp_test_lock(&z) == 1, "repaired lock");
    omp_unset_lock(&z);

    // Contradictory hints: reported, treated as no hint.
    omp_init_lock_with_hint(&z, omp_sync_hint_contended | omp_sync_hint_uncontended);
    omp_set_lock(&z);
    omp_unset_lock(&z);
    omp_destroy_lock(&z);

    // Nest locks.
    omp_nest_lock_t n;
    omp_init_nest_lock(&n);
    omp_unset_nest_lock(&n);  // not set
    omp_set_nest_lock(&n);
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) omp_unset_nest_lock(&n);  // not the owner: ignored
    CHECK(omp_test_nest_lock(&n) == 2, "nest lock kept by its owner");
    omp_destroy_nest_lock(&n);  // set: reported, left as it is
    omp_unset_nest_lock(&n);
    omp_unset_nest_lock(&n);
    omp_destroy_nest_lock(&n);

    // Critical sections: leaving one never entered, re-entering one from inside.
    static kmp_critical_name crit;
    __kmpc_end_critical(NULL, 0, &crit);
    __kmpc_critical(NULL, 0, &crit);
    __kmpc_critical(NULL, 0, &crit);  // would deadlock: reported, let through
    __kmpc_end_critical(NULL, 0, &crit);
    __kmpc_end_critical(NULL, 0, &crit);
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

    if (failures == 0) printf("lock_misuse: all passed\n");
    return failures == 0 ? 0 : 1;
}
