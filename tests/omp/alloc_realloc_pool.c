// omp_realloc within a memory pool counts the room of the block it replaces: a block
// grows to any size that fits once the old block is gone, from the allocator asked or
// from its fallback, and a block that cannot grow stays valid and unchanged (OpenMP 5.2
// 6.9; libgomp's alloc-9.c). Before, the new block had to fit beside the old one, so a
// 3071-byte block could not grow to 3072 bytes in a 4096-byte pool. libomp 19 fails
// this too (its clang build of alloc-9.c aborts), so it runs on loom and libgomp.
// loom-test: runtimes loom libgomp
// loom-test: compilers clang gcc
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    omp_alloctrait_t pool4k[2] = {{omp_atk_fallback, omp_atv_null_fb}, {omp_atk_pool_size, 4096}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, pool4k);
    CHECK(a != omp_null_allocator);
    int* p = (int*)omp_alloc(3071, a);
    CHECK(p != NULL);
    if (p) p[0] = 1;
    p = (int*)omp_realloc(p, 3072, a, a);
    CHECK(p != NULL && p[0] == 1);
    int* q = (int*)omp_alloc(sizeof(int), a);
    CHECK(q != NULL);
    if (q) q[0] = 2;
    CHECK(omp_realloc(q, 3072, a, a) == NULL);  // does not fit beside p
    CHECK(q != NULL && q[0] == 2);              // and q is untouched
    omp_free(p, a);
    omp_free(q, a);
    p = (int*)omp_alloc(sizeof(int), a);
    CHECK(p != NULL);
    if (p) p[0] = 3;
    p = (int*)omp_realloc(p, 4000, a, a);  // the whole pool but the header room
    CHECK(p != NULL && p[0] == 3);
    omp_free(p, a);

    // The old block served by the fallback allocator: its room counts there.
    omp_alloctrait_t outer[3] = {
        {omp_atk_alignment, 128}, {omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t b = omp_init_allocator(omp_default_mem_space, 3, outer);
    omp_alloctrait_t inner[4] = {{omp_atk_alignment, 32},
                                 {omp_atk_pool_size, 512},
                                 {omp_atk_fallback, omp_atv_allocator_fb},
                                 {omp_atk_fb_data, (omp_uintptr_t)b}};
    omp_allocator_handle_t c = omp_init_allocator(omp_default_mem_space, 4, inner);
    CHECK(b != omp_null_allocator && c != omp_null_allocator);
    int* r = (int*)omp_alloc(420, c);             // fills most of c's pool
    int* s = (int*)omp_alloc(sizeof(int), c);     // from b, the fallback
    CHECK(r != NULL && s != NULL && ((uintptr_t)s % 128) == 0);
    if (s) s[0] = 4;
    s = (int*)omp_realloc(s, 700, omp_null_allocator, omp_null_allocator);
    CHECK(s != NULL && ((uintptr_t)s % 128) == 0 && s[0] == 4);
    omp_free(r, omp_null_allocator);
    omp_free(s, omp_null_allocator);
    omp_destroy_allocator(c);
    omp_destroy_allocator(b);
    omp_destroy_allocator(a);
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}
