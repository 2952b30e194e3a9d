// Race-free: shared data guarded by omp_set_lock/omp_unset_lock, by omp_test_lock,
// and by a nest lock taken twice. Without Archer, ThreadSanitizer does not see the
// runtime's locks and reports the guarded updates.
#include <omp.h>
#include <stdio.h>

#define ITERS 2000
static omp_lock_t lock;
static omp_nest_lock_t nest;
static long plain, tested, nested;

static void add_nested(void) {
    omp_set_nest_lock(&nest);
    nested++;
    omp_unset_nest_lock(&nest);
}

int main(void) {
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    int nt = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        nt = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
            omp_set_lock(&lock);
            plain += 3;
            omp_unset_lock(&lock);
            while (!omp_test_lock(&lock)) {
            }
            tested++;
            omp_unset_lock(&lock);
            omp_set_nest_lock(&nest);
            add_nested();
            omp_unset_nest_lock(&nest);
        }
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    int bad = plain != 3L * ITERS * nt || tested != (long)ITERS * nt || nested != (long)ITERS * nt;
    printf("locks: %ld %ld %ld: %s\n", plain, tested, nested, bad ? "FAILED" : "all passed");
    return bad;
}
