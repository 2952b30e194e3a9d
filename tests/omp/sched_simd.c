// The simd-modified schedules through the dispatch interface, as clang lowers
// schedule(simd:guided) (kind 46, kmp_sch_guided_simd) and schedule(simd:runtime)
// (kind 47, kmp_sch_runtime_simd, the simd width passed as the chunk): every member
// takes chunks, each iteration must be handed out once, and every chunk but the one
// holding the loop's last iteration must be a multiple of the simd width (times the
// run-sched-var chunk for dynamic/guided/static,chunk; one block per member for static
// without a chunk). 32- and 64-bit bounds, positive and negative strides.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

enum { sch_guided_simd = 46, sch_runtime_simd = 47, WIDTH = 4 };
typedef struct {
    int reserved_1, flags, reserved_2, reserved_3;
    const char* psource;
} ident;
static ident loc = {0, 2, 0, 0, ";sched_simd.c;main;0;0;;"};
extern int __kmpc_global_thread_num(ident*);
extern void __kmpc_dispatch_init_4(ident*, int, int, int, int, int, int);
extern int __kmpc_dispatch_next_4(ident*, int, int*, int*, int*, int*);
extern void __kmpc_dispatch_init_8(ident*, int, int, long long, long long, long long, long long);
extern int __kmpc_dispatch_next_8(ident*, int, int*, long long*, long long*, long long*);

#define MAXTRIP 5000
static int hits[MAXTRIP];

// `multiple`: non-final chunks must be multiples of it; `one_block`: a member gets at
// most one chunk. Returns the number of problems found.
static int run(int kind, int wide, long long lb, long long ub, long long st, int chunk,
               int multiple, int one_block) {
    const long long trip = st > 0 ? (ub - lb) / st + 1 : (lb - ub) / -st + 1;
    int bad = 0;
    memset(hits, 0, sizeof hits);
#pragma omp parallel reduction(+ : bad)
    {
        int gtid = __kmpc_global_thread_num(&loc);
        int last = 0, chunks = 0;
        long long clb, cub, cst;
        if (wide)
            __kmpc_dispatch_init_8(&loc, gtid, kind, lb, ub, st, chunk);
        else
            __kmpc_dispatch_init_4(&loc, gtid, kind, (int)lb, (int)ub, (int)st, chunk);
        for (;;) {
            int more;
            if (wide) {
                more = __kmpc_dispatch_next_8(&loc, gtid, &last, &clb, &cub, &cst);
            } else {
                int l4, u4, s4;
                more = __kmpc_dispatch_next_4(&loc, gtid, &last, &l4, &u4, &s4);
                clb = l4, cub = u4, cst = s4;
            }
            if (!more) break;
            ++chunks;
            const long long n = (cub - clb) / st + 1;
            const int holds_end = cub == lb + (trip - 1) * st;
            if (cst != st || n < 1) ++bad;
            if (!holds_end && n % multiple != 0) {
                printf("kind %d: chunk [%lld, %lld] of %lld iterations, not a multiple of %d\n",
                       kind, clb, cub, n, multiple);
                ++bad;
            }
            for (long long i = clb; st > 0 ? i <= cub : i >= cub; i += st) {
#pragma omp atomic
                hits[(i - lb) / st]++;
            }
        }
        if (one_block && chunks > 1) ++bad;
    }
    for (long long k = 0; k < trip; ++k) bad += hits[k] != 1;
    return bad;
}

static void guided_simd(void) {
    for (int wide = 0; wide < 2; ++wide)
        for (int ub = 0; ub < 700; ub += 37) {
            CHECK(run(sch_guided_simd, wide, 0, ub, 1, WIDTH, WIDTH, 0) == 0);
            CHECK(run(sch_guided_simd, wide, 3 * ub + 5, 5, -3, 2 * WIDTH, 2 * WIDTH, 0) == 0);
        }
    CHECK(run(sch_guided_simd, 0, -100, 4899, 1, WIDTH, WIDTH, 0) == 0);
}

static void runtime_simd(void) {
    static const struct {
        int kind, chunk, multiple, one_block;
    } cases[] = {
        {omp_sched_static, 0, WIDTH, 1},      // blocks rounded up to the width
        {omp_sched_auto, 0, WIDTH, 1},        // like static
        {omp_sched_static, 3, 3 * WIDTH, 0},  // chunk times the width
        {omp_sched_dynamic, 1, WIDTH, 0},
        {omp_sched_dynamic, 2, 2 * WIDTH, 0},
        {omp_sched_guided, 1, WIDTH, 0},
        {omp_sched_guided, 3, 3 * WIDTH, 0},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        omp_set_schedule((omp_sched_t)cases[c].kind, cases[c].chunk);
        for (int wide = 0; wide < 2; ++wide)
            for (int ub = 0; ub < 900; ub += 53) {
                CHECK(run(sch_runtime_simd, wide, 0, ub, 1, WIDTH, cases[c].multiple,
                          cases[c].one_block) == 0);
                CHECK(run(sch_runtime_simd, wide, 2 * ub, 0, -2, WIDTH, cases[c].multiple,
                          cases[c].one_block) == 0);
            }
    }
}

int main(void) {
    guided_simd();
    runtime_simd();
    if (failures) return 1;
    printf("sched_simd: all passed\n");
    return 0;
}
