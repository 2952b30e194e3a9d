// The __kmpc_*_lock entry points (what Intel's compilers emit for the lock routines):
// (ident_t *loc, kmp_int32 gtid, void **user_lock[, uintptr_t hint]). They work on the
// same objects as omp_*_lock, so the two families can be mixed on one lock.
// loom-test: threads 4
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ident ident_t;
extern int __kmpc_global_thread_num(ident_t*);
extern void __kmpc_init_lock(ident_t*, int, void**);
extern void __kmpc_init_lock_with_hint(ident_t*, int, void**, uintptr_t);
extern void __kmpc_destroy_lock(ident_t*, int, void**);
extern void __kmpc_set_lock(ident_t*, int, void**);
extern void __kmpc_unset_lock(ident_t*, int, void**);
extern int __kmpc_test_lock(ident_t*, int, void**);
extern void __kmpc_init_nest_lock(ident_t*, int, void**);
extern void __kmpc_init_nest_lock_with_hint(ident_t*, int, void**, uintptr_t);
extern void __kmpc_destroy_nest_lock(ident_t*, int, void**);
extern void __kmpc_set_nest_lock(ident_t*, int, void**);
extern void __kmpc_unset_nest_lock(ident_t*, int, void**);
extern int __kmpc_test_nest_lock(ident_t*, int, void**);

#define ITERS 5000
static int failures = 0;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            failures++;                                               \
            printf("FAIL line %d: ", __LINE__);                       \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
        }                                                             \
    } while (0)

static void bump(volatile long* p) {
    long v = *p;
    for (volatile int k = 0; k < 4; k++) {
    }
    *p = v + 1;
}

static void run(void** simple, void** nest, const char* what) {
    volatile long a = 0, b = 0;
    int team = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        team = omp_get_num_threads();
        int g = __kmpc_global_thread_num(NULL);
        for (int i = 0; i < ITERS; i++) {
            if (i % 2) {
                __kmpc_set_lock(NULL, g, simple);
            } else {
                while (!__kmpc_test_lock(NULL, g, simple)) {
                }
            }
            bump(&a);
            if (i % 3 == 0)
                omp_unset_lock((omp_lock_t*)simple);  // mixed with the omp_* family
            else
                __kmpc_unset_lock(NULL, g, simple);
            __kmpc_set_nest_lock(NULL, g, nest);
            int depth = __kmpc_test_nest_lock(NULL, g, nest);
            if (depth != 2) {
#pragma omp atomic
                failures++;
            }
            omp_set_nest_lock((omp_nest_lock_t*)nest);
            bump(&b);
            __kmpc_unset_nest_lock(NULL, g, nest);
            omp_unset_nest_lock((omp_nest_lock_t*)nest);
            __kmpc_unset_nest_lock(NULL, g, nest);
        }
    }
    CHECK(a == (long)team * ITERS && b == (long)team * ITERS, "%s: %ld %ld", what, a, b);
}

int main(void) {
    int g = __kmpc_global_thread_num(NULL);
    omp_lock_t l;
    omp_nest_lock_t nl;

    __kmpc_init_lock(NULL, g, (void**)&l);
    __kmpc_init_nest_lock(NULL, g, (void**)&nl);
    CHECK(__kmpc_test_lock(NULL, g, (void**)&l) == 1, "test of a free lock");
    __kmpc_unset_lock(NULL, g, (void**)&l);
    CHECK(__kmpc_test_nest_lock(NULL, g, (void**)&nl) == 1, "nest depth 1");
    CHECK(__kmpc_test_nest_lock(NULL, g, (void**)&nl) == 2, "nest depth 2");
    __kmpc_unset_nest_lock(NULL, g, (void**)&nl);
    __kmpc_unset_nest_lock(NULL, g, (void**)&nl);
    run((void**)&l, (void**)&nl, "plain");
    __kmpc_destroy_lock(NULL, g, (void**)&l);
    __kmpc_destroy_nest_lock(NULL, g, (void**)&nl);

    __kmpc_init_lock_with_hint(NULL, g, (void**)&l, omp_sync_hint_contended);
    __kmpc_init_nest_lock_with_hint(NULL, g, (void**)&nl, omp_sync_hint_uncontended);
    run((void**)&l, (void**)&nl, "hinted");
    __kmpc_destroy_lock(NULL, g, (void**)&l);
    __kmpc_destroy_nest_lock(NULL, g, (void**)&nl);

    // Initialised by omp_*, used through __kmpc_*.
    omp_init_lock(&l);
    omp_init_nest_lock(&nl);
    run((void**)&l, (void**)&nl, "omp_init + kmpc");
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&nl);

    if (failures == 0) printf("lock_kmpc: all passed\n");
    return failures == 0 ? 0 : 1;
}
