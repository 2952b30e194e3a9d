// Allocator edge cases of OpenMP 5.2 (6.2-6.13) as libomp 19 has them: 0 bytes give
// NULL, realloc of NULL allocates, realloc to 0 bytes frees, pool_size bounds what a
// custom allocator hands out and its fallback trait decides what happens beyond it
// (null_fb, default_mem_fb, allocator_fb), freed blocks return to the pool, and the
// alignment trait holds. Exactly one of two threads racing for the last room of a pool
// gets it.
// loom-test: threads 4
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(c)                                                   \
    do {                                                           \
        if (!(c)) {                                                \
            printf("FAILED line %d: %s\n", __LINE__, #c);          \
            ++failures;                                            \
        }                                                          \
    } while (0)

static omp_allocator_handle_t pool_alloc(omp_memspace_handle_t ms, omp_uintptr_t fb,
                                         omp_allocator_handle_t fb_data) {
    omp_alloctrait_t at[3] = {{omp_atk_pool_size, 2 * 1024 * 1024},
                              {omp_atk_fallback, fb},
                              {omp_atk_fb_data, (omp_uintptr_t)fb_data}};
    return omp_init_allocator(ms, fb == omp_atv_allocator_fb ? 3 : 2, at);
}

static void zero_sizes(void) {
    omp_allocator_handle_t a = pool_alloc(omp_large_cap_mem_space, omp_atv_default_mem_fb, 0);
    CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL);
    CHECK(omp_alloc(0, a) == NULL);
    CHECK(omp_calloc(1024, 0, a) == NULL);
    CHECK(omp_calloc(0, 1024, omp_default_mem_alloc) == NULL);
    CHECK(omp_aligned_alloc(64, 0, omp_default_mem_alloc) == NULL);
    omp_destroy_allocator(a);
}

static void realloc_cases(void) {
    omp_allocator_handle_t a = pool_alloc(omp_large_cap_mem_space, omp_atv_default_mem_fb, 0);
    char* p = omp_realloc(NULL, 100, a, omp_null_allocator);  // allocates
    CHECK(p != NULL);
    if (!p) return;
    memset(p, 7, 100);
    char* q = omp_realloc(p, 200, a, a);  // moves, keeps the contents
    CHECK(q != NULL && q[0] == 7 && q[99] == 7);
    char* r = omp_realloc(q, 50, omp_null_allocator, a);  // null: q's allocator
    CHECK(r != NULL && r[49] == 7);
    CHECK(omp_realloc(r, 0, a, a) == NULL);  // frees
    omp_destroy_allocator(a);
}

static void pool_and_fallbacks(void) {
    omp_allocator_handle_t nul = pool_alloc(omp_default_mem_space, omp_atv_null_fb, 0);
    omp_allocator_handle_t def = pool_alloc(omp_default_mem_space, omp_atv_default_mem_fb, 0);
    omp_allocator_handle_t chain = pool_alloc(omp_default_mem_space, omp_atv_allocator_fb, def);
    CHECK(nul != omp_null_allocator && def != omp_null_allocator && chain != omp_null_allocator);
    void* a = omp_alloc(1536 * 1024, nul);
    void* b = omp_alloc(1536 * 1024, nul);  // beyond the pool: null_fb
    CHECK(a != NULL && b == NULL);
    omp_free(a, nul);
    a = omp_alloc(1536 * 1024, nul);  // the freed block went back to the pool
    CHECK(a != NULL);
    omp_free(a, nul);
    void* c = omp_alloc(1536 * 1024, def);
    void* d = omp_alloc(1536 * 1024, def);  // default_mem_fb: served anyway
    CHECK(c != NULL && d != NULL);
    void* e = omp_alloc(1536 * 1024, chain);
    void* f = omp_alloc(1536 * 1024, chain);  // allocator_fb: from `def`, then its fallback
    CHECK(e != NULL && f != NULL);
    omp_free(c, def);
    omp_free(d, def);
    omp_free(e, omp_null_allocator);  // f came from a fallback's fallback
    omp_free(f, omp_null_allocator);
    omp_destroy_allocator(chain);
    omp_destroy_allocator(def);
    omp_destroy_allocator(nul);
}

static void alignment_trait(void) {
    omp_alloctrait_t at[1] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, at);
    for (int i = 1; i < 40; i += 7) {
        void* p = omp_alloc((size_t)i, a);
        CHECK(p != NULL && (uintptr_t)p % 256 == 0);
        omp_free(p, a);
    }
    omp_destroy_allocator(a);
}

static void race_for_the_pool(void) {
    for (int rep = 0; rep < 50; ++rep) {
        omp_allocator_handle_t a = pool_alloc(omp_default_mem_space, omp_atv_null_fb, 0);
        void* p[4] = {0};
#pragma omp parallel num_threads(4)
        {
            int i = omp_get_thread_num();
#pragma omp barrier
            p[i] = omp_alloc(1024 * 1024, a);
#pragma omp barrier
            omp_free(p[i], a);
        }
        int got = 0;
        for (int i = 0; i < 4; ++i) got += p[i] != NULL;
        CHECK(got == 1);
        omp_destroy_allocator(a);
    }
}

int main(void) {
    zero_sizes();
    realloc_cases();
    pool_and_fallbacks();
    alignment_trait();
    race_for_the_pool();
    if (failures) return 1;
    printf("alloc_edge_cases: all passed\n");
    return 0;
}
