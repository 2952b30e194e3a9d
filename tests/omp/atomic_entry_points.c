// Every __kmpc_atomic_* entry point that libomp 19 exports (340 of them), called
// directly: the semantics of each operation, type, _rev, _cpt (both flags), _cpt_rev,
// _rd, _wr, _swp, the mixed-type forms, the CAS forms, the generic forms and
// __kmpc_atomic_start/end; then contention from 4 threads on the lock-free and the
// lock-based paths (long double, complex, misaligned objects, generic 16/32 bytes).
// clang never emits these calls itself; Intel's compilers and programs do.
// loom-test: threads 4
// loom-test: timeout 120
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct ident ident_t;
typedef float _Complex c4_t;
typedef double _Complex c8_t;
typedef long double _Complex c10_t;

extern int __kmpc_global_thread_num(ident_t*);

static int failures = 0;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            failures++;                                               \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);               \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
        }                                                             \
    } while (0)

static int gtid(void) { return __kmpc_global_thread_num(NULL); }

// ---- prototypes (kmp_atomic.h) and single-thread checks, generated per family ------

// x = x op e ; cpt returns new (flag 1) or old (flag 0)
#define DECL_OP(NAME, OP, T, R)                                                     \
    extern void __kmpc_atomic_##NAME##_##OP(ident_t*, int, T*, R);
#define DECL_CPT(NAME, OP, T)                                                       \
    extern T __kmpc_atomic_##NAME##_##OP##_cpt(ident_t*, int, T*, T, int);
#define DECL_REV(NAME, OP, T)                                                       \
    extern void __kmpc_atomic_##NAME##_##OP##_rev(ident_t*, int, T*, T);            \
    extern T __kmpc_atomic_##NAME##_##OP##_cpt_rev(ident_t*, int, T*, T, int);
#define DECL_RWS(NAME, T)                                                           \
    extern T __kmpc_atomic_##NAME##_rd(ident_t*, int, T*);                          \
    extern void __kmpc_atomic_##NAME##_wr(ident_t*, int, T*, T);                    \
    extern T __kmpc_atomic_##NAME##_swp(ident_t*, int, T*, T);

// Checks op, cpt with both flags: expected value is computed by the same C expression.
#define CHECK_OP_CPT(NAME, OP, T, X0, E, EXPR)                                     \
    do {                                                                            \
        T x = (X0), e = (E), a = (X0);                                              \
        T want = (T)(EXPR);                                                         \
        __kmpc_atomic_##NAME##_##OP(NULL, gtid(), &x, e);                           \
        CHECK(memcmp(&x, &want, sizeof(T)) == 0 || x == want, #NAME "_" #OP);       \
        x = a;                                                                      \
        T r = __kmpc_atomic_##NAME##_##OP##_cpt(NULL, gtid(), &x, e, 1);            \
        CHECK(x == want && r == want, #NAME "_" #OP "_cpt flag 1");                 \
        x = a;                                                                      \
        r = __kmpc_atomic_##NAME##_##OP##_cpt(NULL, gtid(), &x, e, 0);              \
        CHECK(x == want && r == a, #NAME "_" #OP "_cpt flag 0");                    \
    } while (0)

// x = e op x
#define CHECK_REV(NAME, OP, T, X0, E, EXPR_REV)                                    \
    do {                                                                            \
        T x = (X0), e = (E), a = (X0);                                              \
        T want = (T)(EXPR_REV);                                                     \
        __kmpc_atomic_##NAME##_##OP##_rev(NULL, gtid(), &x, e);                     \
        CHECK(x == want, #NAME "_" #OP "_rev");                                     \
        x = a;                                                                      \
        T r = __kmpc_atomic_##NAME##_##OP##_cpt_rev(NULL, gtid(), &x, e, 1);        \
        CHECK(x == want && r == want, #NAME "_" #OP "_cpt_rev flag 1");             \
        x = a;                                                                      \
        r = __kmpc_atomic_##NAME##_##OP##_cpt_rev(NULL, gtid(), &x, e, 0);          \
        CHECK(x == want && r == a, #NAME "_" #OP "_cpt_rev flag 0");                \
    } while (0)

#define CHECK_RWS(NAME, T, V1, V2)                                                  \
    do {                                                                            \
        T x = (V1), v2 = (V2);                                                      \
        CHECK(__kmpc_atomic_##NAME##_rd(NULL, gtid(), &x) == (T)(V1), #NAME "_rd"); \
        __kmpc_atomic_##NAME##_wr(NULL, gtid(), &x, v2);                            \
        CHECK(x == v2, #NAME "_wr");                                                \
        T old = __kmpc_atomic_##NAME##_swp(NULL, gtid(), &x, (T)(V1));              \
        CHECK(old == v2 && x == (T)(V1), #NAME "_swp");                             \
    } while (0)

// ---- integer families -------------------------------------------------------------

#define DECL_FIXED(N, T, UT)                                                        \
    DECL_OP(fixed##N, add, T, T) DECL_CPT(fixed##N, add, T)                         \
    DECL_OP(fixed##N, sub, T, T) DECL_CPT(fixed##N, sub, T)                         \
    DECL_OP(fixed##N, mul, T, T) DECL_CPT(fixed##N, mul, T)                         \
    DECL_OP(fixed##N, div, T, T) DECL_CPT(fixed##N, div, T)                         \
    DECL_OP(fixed##N, andb, T, T) DECL_CPT(fixed##N, andb, T)                       \
    DECL_OP(fixed##N, orb, T, T) DECL_CPT(fixed##N, orb, T)                         \
    DECL_OP(fixed##N, xor, T, T) DECL_CPT(fixed##N, xor, T)                         \
    DECL_OP(fixed##N, shl, T, T) DECL_CPT(fixed##N, shl, T)                         \
    DECL_OP(fixed##N, shr, T, T) DECL_CPT(fixed##N, shr, T)                         \
    DECL_OP(fixed##N, andl, T, T) DECL_CPT(fixed##N, andl, T)                       \
    DECL_OP(fixed##N, orl, T, T) DECL_CPT(fixed##N, orl, T)                         \
    DECL_OP(fixed##N, eqv, T, T) DECL_CPT(fixed##N, eqv, T)                         \
    DECL_OP(fixed##N, neqv, T, T) DECL_CPT(fixed##N, neqv, T)                       \
    DECL_OP(fixed##N, max, T, T) DECL_CPT(fixed##N, max, T)                         \
    DECL_OP(fixed##N, min, T, T) DECL_CPT(fixed##N, min, T)                         \
    DECL_REV(fixed##N, sub, T) DECL_REV(fixed##N, div, T)                           \
    DECL_REV(fixed##N, shl, T) DECL_REV(fixed##N, shr, T)                           \
    DECL_RWS(fixed##N, T)                                                           \
    DECL_OP(fixed##N, mul_float8, T, double) DECL_OP(fixed##N, div_float8, T, double) \
    DECL_OP(fixed##N##u, div, UT, UT) DECL_CPT(fixed##N##u, div, UT)                \
    DECL_OP(fixed##N##u, shr, UT, UT) DECL_CPT(fixed##N##u, shr, UT)                \
    DECL_REV(fixed##N##u, div, UT) DECL_REV(fixed##N##u, shr, UT)

DECL_FIXED(1, signed char, unsigned char)
DECL_FIXED(2, short, unsigned short)
DECL_FIXED(4, int32_t, uint32_t)
DECL_FIXED(8, int64_t, uint64_t)

#define MAXV(a, b) ((a) < (b) ? (b) : (a))
#define MINV(a, b) ((a) > (b) ? (b) : (a))

#define CHECK_FIXED(N, T, UT)                                                       \
    do {                                                                            \
        const T X = 12, E = 3, NX = -16;                                            \
        CHECK_OP_CPT(fixed##N, add, T, X, E, X + E);                                \
        CHECK_OP_CPT(fixed##N, sub, T, X, E, X - E);                                \
        CHECK_OP_CPT(fixed##N, mul, T, X, E, X * E);                                \
        CHECK_OP_CPT(fixed##N, div, T, NX, E, NX / E);                              \
        CHECK_OP_CPT(fixed##N, andb, T, X, E, X & E);                               \
        CHECK_OP_CPT(fixed##N, orb, T, X, E, X | E);                                \
        CHECK_OP_CPT(fixed##N, xor, T, X, E, X ^ E);                                \
        CHECK_OP_CPT(fixed##N, shl, T, X, E, X << E);                               \
        CHECK_OP_CPT(fixed##N, shr, T, NX, E, NX >> E);                             \
        CHECK_OP_CPT(fixed##N, andl, T, X, 0, X && 0);                              \
        CHECK_OP_CPT(fixed##N, andl, T, X, E, X && E);                              \
        CHECK_OP_CPT(fixed##N, orl, T, 0, 0, 0 || 0);                               \
        CHECK_OP_CPT(fixed##N, orl, T, 0, E, 0 || E);                               \
        CHECK_OP_CPT(fixed##N, eqv, T, X, E, ~(X ^ E));                             \
        CHECK_OP_CPT(fixed##N, neqv, T, X, E, X ^ E);                               \
        CHECK_OP_CPT(fixed##N, max, T, X, E, MAXV(X, E));                           \
        CHECK_OP_CPT(fixed##N, max, T, E, X, MAXV(E, X));                           \
        CHECK_OP_CPT(fixed##N, min, T, X, E, MINV(X, E));                           \
        CHECK_OP_CPT(fixed##N, min, T, E, X, MINV(E, X));                           \
        CHECK_REV(fixed##N, sub, T, X, E, E - X);                                   \
        CHECK_REV(fixed##N, div, T, E, NX, NX / E);                                 \
        CHECK_REV(fixed##N, shl, T, 2, E, E << 2);                                  \
        CHECK_REV(fixed##N, shr, T, 2, NX, NX >> 2);                                \
        CHECK_RWS(fixed##N, T, X, NX);                                              \
        {                                                                           \
            T x = X;                                                                \
            __kmpc_atomic_fixed##N##_mul_float8(NULL, gtid(), &x, 2.5);             \
            CHECK(x == (T)(X * 2.5), "fixed" #N "_mul_float8");                     \
            x = X;                                                                  \
            __kmpc_atomic_fixed##N##_div_float8(NULL, gtid(), &x, 0.5);             \
            CHECK(x == (T)(X / 0.5), "fixed" #N "_div_float8");                     \
        }                                                                           \
        const UT UX = (UT)NX, UE = 3;                                               \
        CHECK_OP_CPT(fixed##N##u, div, UT, UX, UE, UX / UE);                        \
        CHECK_OP_CPT(fixed##N##u, shr, UT, UX, UE, UX >> UE);                       \
        CHECK_REV(fixed##N##u, div, UT, UE, UX, UX / UE);                           \
        CHECK_REV(fixed##N##u, shr, UT, 2, UX, UX >> 2);                            \
    } while (0)

// ---- floating families --------------------------------------------------------------

#define DECL_FLOAT(NAME, T)                                                         \
    DECL_OP(NAME, add, T, T) DECL_CPT(NAME, add, T)                                 \
    DECL_OP(NAME, sub, T, T) DECL_CPT(NAME, sub, T)                                 \
    DECL_OP(NAME, mul, T, T) DECL_CPT(NAME, mul, T)                                 \
    DECL_OP(NAME, div, T, T) DECL_CPT(NAME, div, T)                                 \
    DECL_OP(NAME, max, T, T) DECL_CPT(NAME, max, T)                                 \
    DECL_OP(NAME, min, T, T) DECL_CPT(NAME, min, T)                                 \
    DECL_REV(NAME, sub, T) DECL_REV(NAME, div, T)                                   \
    DECL_RWS(NAME, T)

DECL_FLOAT(float4, float)
DECL_FLOAT(float8, double)
DECL_FLOAT(float10, long double)
DECL_OP(float4, add_float8, float, double)
DECL_OP(float4, sub_float8, float, double)
DECL_OP(float4, mul_float8, float, double)
DECL_OP(float4, div_float8, float, double)

#define CHECK_FLOAT(NAME, T)                                                        \
    do {                                                                            \
        const T X = 12.5, E = 0.25;                                                 \
        CHECK_OP_CPT(NAME, add, T, X, E, X + E);                                    \
        CHECK_OP_CPT(NAME, sub, T, X, E, X - E);                                    \
        CHECK_OP_CPT(NAME, mul, T, X, E, X * E);                                    \
        CHECK_OP_CPT(NAME, div, T, X, E, X / E);                                    \
        CHECK_OP_CPT(NAME, max, T, X, E, MAXV(X, E));                               \
        CHECK_OP_CPT(NAME, max, T, E, X, MAXV(E, X));                               \
        CHECK_OP_CPT(NAME, min, T, X, E, MINV(X, E));                               \
        CHECK_OP_CPT(NAME, min, T, E, X, MINV(E, X));                               \
        CHECK_REV(NAME, sub, T, X, E, E - X);                                       \
        CHECK_REV(NAME, div, T, X, E, E / X);                                       \
        CHECK_RWS(NAME, T, X, -E);                                                  \
    } while (0)

// ---- complex families ---------------------------------------------------------------

#define DECL_CMPLX(NAME, T)                                                         \
    DECL_OP(NAME, add, T, T) DECL_CPT(NAME, add, T)                                 \
    DECL_OP(NAME, sub, T, T) DECL_CPT(NAME, sub, T)                                 \
    DECL_OP(NAME, mul, T, T) DECL_CPT(NAME, mul, T)                                 \
    DECL_OP(NAME, div, T, T) DECL_CPT(NAME, div, T)                                 \
    DECL_REV(NAME, sub, T) DECL_REV(NAME, div, T)                                   \
    DECL_RWS(NAME, T)

DECL_CMPLX(cmplx8, c8_t)
DECL_CMPLX(cmplx10, c10_t)
// cmplx4: captures and swap return through an `out` argument; read returns by value.
#define DECL_C4(OP)                                                                 \
    DECL_OP(cmplx4, OP, c4_t, c4_t)                                                 \
    extern void __kmpc_atomic_cmplx4_##OP##_cpt(ident_t*, int, c4_t*, c4_t, c4_t*, int);
DECL_C4(add)
DECL_C4(sub)
DECL_C4(mul)
DECL_C4(div)
extern void __kmpc_atomic_cmplx4_sub_rev(ident_t*, int, c4_t*, c4_t);
extern void __kmpc_atomic_cmplx4_div_rev(ident_t*, int, c4_t*, c4_t);
extern void __kmpc_atomic_cmplx4_sub_cpt_rev(ident_t*, int, c4_t*, c4_t, c4_t*, int);
extern void __kmpc_atomic_cmplx4_div_cpt_rev(ident_t*, int, c4_t*, c4_t, c4_t*, int);
extern c4_t __kmpc_atomic_cmplx4_rd(ident_t*, int, c4_t*);
extern void __kmpc_atomic_cmplx4_wr(ident_t*, int, c4_t*, c4_t);
extern void __kmpc_atomic_cmplx4_swp(ident_t*, int, c4_t*, c4_t, c4_t*);
DECL_OP(cmplx4, add_cmplx8, c4_t, c8_t)
DECL_OP(cmplx4, sub_cmplx8, c4_t, c8_t)
DECL_OP(cmplx4, mul_cmplx8, c4_t, c8_t)
DECL_OP(cmplx4, div_cmplx8, c4_t, c8_t)

// Values whose products and quotients are exact: (4+8i)/(2+2i) = 3+i.
#define CHECK_CMPLX(NAME, T)                                                        \
    do {                                                                            \
        const T X = 4.0 + 8.0 * I_, E = 2.0 + 2.0 * I_;                             \
        CHECK_OP_CPT(NAME, add, T, X, E, X + E);                                    \
        CHECK_OP_CPT(NAME, sub, T, X, E, X - E);                                    \
        CHECK_OP_CPT(NAME, mul, T, X, E, X * E);                                    \
        CHECK_OP_CPT(NAME, div, T, X, E, X / E);                                    \
        CHECK_REV(NAME, sub, T, X, E, E - X);                                       \
        CHECK_REV(NAME, div, T, E, X, X / E);                                       \
        CHECK_RWS(NAME, T, X, E);                                                   \
    } while (0)
#define I_ (__extension__ 1.0iF)

#define CHECK_C4(OP, EXPR)                                                          \
    do {                                                                            \
        c4_t x = X, out = 0, want = (c4_t)(EXPR);                                   \
        __kmpc_atomic_cmplx4_##OP(NULL, gtid(), &x, E);                             \
        CHECK(x == want, "cmplx4_" #OP);                                            \
        x = X;                                                                      \
        __kmpc_atomic_cmplx4_##OP##_cpt(NULL, gtid(), &x, E, &out, 1);              \
        CHECK(x == want && out == want, "cmplx4_" #OP "_cpt flag 1");               \
        x = X;                                                                      \
        __kmpc_atomic_cmplx4_##OP##_cpt(NULL, gtid(), &x, E, &out, 0);              \
        CHECK(x == want && out == X, "cmplx4_" #OP "_cpt flag 0");                  \
    } while (0)

static void check_cmplx4(void) {
    const c4_t X = 4.0f + 8.0f * I_, E = 2.0f + 2.0f * I_;
    CHECK_C4(add, X + E);
    CHECK_C4(sub, X - E);
    CHECK_C4(mul, X * E);
    CHECK_C4(div, X / E);
    c4_t x = X, out = 0;
    __kmpc_atomic_cmplx4_sub_rev(NULL, gtid(), &x, E);
    CHECK(x == E - X, "cmplx4_sub_rev");
    x = E;
    __kmpc_atomic_cmplx4_div_rev(NULL, gtid(), &x, X);
    CHECK(x == X / E, "cmplx4_div_rev");
    x = X;
    __kmpc_atomic_cmplx4_sub_cpt_rev(NULL, gtid(), &x, E, &out, 1);
    CHECK(x == E - X && out == E - X, "cmplx4_sub_cpt_rev flag 1");
    x = E;
    __kmpc_atomic_cmplx4_div_cpt_rev(NULL, gtid(), &x, X, &out, 0);
    CHECK(x == X / E && out == E, "cmplx4_div_cpt_rev flag 0");
    x = X;
    CHECK(__kmpc_atomic_cmplx4_rd(NULL, gtid(), &x) == X, "cmplx4_rd");
    __kmpc_atomic_cmplx4_wr(NULL, gtid(), &x, E);
    CHECK(x == E, "cmplx4_wr");
    __kmpc_atomic_cmplx4_swp(NULL, gtid(), &x, X, &out);
    CHECK(x == X && out == E, "cmplx4_swp");
    const c8_t E8 = 2.0 + 2.0 * I_;
    x = X;
    __kmpc_atomic_cmplx4_add_cmplx8(NULL, gtid(), &x, E8);
    CHECK(x == (c4_t)((c8_t)X + E8), "cmplx4_add_cmplx8");
    x = X;
    __kmpc_atomic_cmplx4_sub_cmplx8(NULL, gtid(), &x, E8);
    CHECK(x == (c4_t)((c8_t)X - E8), "cmplx4_sub_cmplx8");
    x = X;
    __kmpc_atomic_cmplx4_mul_cmplx8(NULL, gtid(), &x, E8);
    CHECK(x == (c4_t)((c8_t)X * E8), "cmplx4_mul_cmplx8");
    x = X;
    __kmpc_atomic_cmplx4_div_cmplx8(NULL, gtid(), &x, E8);
    CHECK(x == (c4_t)((c8_t)X / E8), "cmplx4_div_cmplx8");
}

// ---- compare-and-swap forms ---------------------------------------------------------

#define DECL_CAS(N, T)                                                              \
    extern bool __kmpc_atomic_bool_##N##_cas(ident_t*, int, T*, T, T);              \
    extern T __kmpc_atomic_val_##N##_cas(ident_t*, int, T*, T, T);                  \
    extern bool __kmpc_atomic_bool_##N##_cas_cpt(ident_t*, int, T*, T, T, T*);      \
    extern T __kmpc_atomic_val_##N##_cas_cpt(ident_t*, int, T*, T, T, T*);
DECL_CAS(1, signed char)
DECL_CAS(2, short)
DECL_CAS(4, int32_t)
DECL_CAS(8, int64_t)

#define CHECK_CAS(N, T)                                                             \
    do {                                                                            \
        T x = 5, v = 0;                                                             \
        CHECK(!__kmpc_atomic_bool_##N##_cas(NULL, gtid(), &x, 4, 9) && x == 5,     \
              "bool_" #N "_cas miss");                                              \
        CHECK(__kmpc_atomic_bool_##N##_cas(NULL, gtid(), &x, 5, 9) && x == 9,      \
              "bool_" #N "_cas hit");                                               \
        CHECK(__kmpc_atomic_val_##N##_cas(NULL, gtid(), &x, 4, 7) == 9 && x == 9,  \
              "val_" #N "_cas miss");                                               \
        CHECK(__kmpc_atomic_val_##N##_cas(NULL, gtid(), &x, 9, 7) == 9 && x == 7,  \
              "val_" #N "_cas hit");                                                \
        CHECK(!__kmpc_atomic_bool_##N##_cas_cpt(NULL, gtid(), &x, 1, 2, &v) &&      \
                  x == 7 && v == 7, "bool_" #N "_cas_cpt miss");                    \
        v = 0;                                                                      \
        CHECK(__kmpc_atomic_bool_##N##_cas_cpt(NULL, gtid(), &x, 7, 2, &v) &&       \
                  x == 2 && v == 0, "bool_" #N "_cas_cpt hit");                     \
        CHECK(__kmpc_atomic_val_##N##_cas_cpt(NULL, gtid(), &x, 1, 3, &v) == 2 &&   \
                  x == 2 && v == 2, "val_" #N "_cas_cpt miss");                     \
        CHECK(__kmpc_atomic_val_##N##_cas_cpt(NULL, gtid(), &x, 2, 3, &v) == 2 &&   \
                  x == 3 && v == 3, "val_" #N "_cas_cpt hit");                      \
    } while (0)

// ---- generic forms and the global atomic lock -----------------------------------------

typedef void (*combiner)(void* out, void* a, void* b);
#define DECL_GENERIC(N) extern void __kmpc_atomic_##N(ident_t*, int, void*, void*, combiner);
DECL_GENERIC(1)
DECL_GENERIC(2)
DECL_GENERIC(4)
DECL_GENERIC(8)
DECL_GENERIC(10)
DECL_GENERIC(16)
DECL_GENERIC(20)
DECL_GENERIC(32)
extern void __kmpc_atomic_start(void);
extern void __kmpc_atomic_end(void);

typedef struct { int32_t v[5]; } twenty_t;  // 20 bytes: the size of cmplx10 on IA-32

static void add_i8(void* o, void* a, void* b) { *(signed char*)o = *(signed char*)a + *(signed char*)b; }
static void add_i16(void* o, void* a, void* b) { *(short*)o = *(short*)a + *(short*)b; }
static void add_i32(void* o, void* a, void* b) { *(int32_t*)o = *(int32_t*)a + *(int32_t*)b; }
static void add_f64(void* o, void* a, void* b) { *(double*)o = *(double*)a + *(double*)b; }
static void add_f80(void* o, void* a, void* b) { *(long double*)o = *(long double*)a + *(long double*)b; }
static void add_c8(void* o, void* a, void* b) { *(c8_t*)o = *(c8_t*)a + *(c8_t*)b; }
static void add_c10(void* o, void* a, void* b) { *(c10_t*)o = *(c10_t*)a + *(c10_t*)b; }
static void add_20(void* o, void* a, void* b) {
    twenty_t r;
    for (int i = 0; i < 5; i++) r.v[i] = ((twenty_t*)a)->v[i] + ((twenty_t*)b)->v[i];
    *(twenty_t*)o = r;
}

static void check_generic(void) {
    signed char i1 = 1, e1 = 2;
    short i2 = 1, e2 = 2;
    int32_t i4 = 1, e4 = 2;
    double f8 = 1, g8 = 2;
    long double f10 = 1, g10 = 2;
    c8_t c8 = 1, d8 = 2.0 * I_;
    c10_t c10 = 1, d10 = 2.0 * I_;
    twenty_t t = {{1, 2, 3, 4, 5}}, u = {{1, 1, 1, 1, 1}};
    __kmpc_atomic_1(NULL, gtid(), &i1, &e1, add_i8);
    __kmpc_atomic_2(NULL, gtid(), &i2, &e2, add_i16);
    __kmpc_atomic_4(NULL, gtid(), &i4, &e4, add_i32);
    __kmpc_atomic_8(NULL, gtid(), &f8, &g8, add_f64);
    __kmpc_atomic_10(NULL, gtid(), &f10, &g10, add_f80);
    __kmpc_atomic_16(NULL, gtid(), &c8, &d8, add_c8);
    __kmpc_atomic_20(NULL, gtid(), &t, &u, add_20);
    __kmpc_atomic_32(NULL, gtid(), &c10, &d10, add_c10);
    CHECK(i1 == 3 && i2 == 3 && i4 == 3 && f8 == 3 && f10 == 3, "generic 1/2/4/8/10");
    CHECK(c8 == 1 + 2.0 * I_ && c10 == 1 + 2.0 * I_, "generic 16/32");
    CHECK(t.v[0] == 2 && t.v[4] == 6, "generic 20");
}

// ---- contention -----------------------------------------------------------------------

#define ITERS 4000

#pragma pack(push, 1)
struct packed {
    char pad;
    int32_t i4;   // misaligned: loom takes its lock path, libomp its critical path
    int64_t i8;
};
#pragma pack(pop)

static void check_contention(void) {
    int32_t i4 = 0, cas_counter = 0;
    int64_t i8 = 0, imax = -1;
    unsigned char u1 = 0;
    float f4 = 0;
    double f8 = 0;
    long double f10 = 0;
    c4_t c4 = 0;
    c8_t c8 = 0;
    c10_t c10 = 0;
    c8_t g16 = 0;
    c10_t g32 = 0;
    struct packed p = {0, 0, 0};
    int64_t guarded[3] = {0, 0, 0};
    int nthreads = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        nthreads = omp_get_num_threads();
        const int me = gtid();
        const c8_t one8 = 1.0 + 1.0 * I_;
        const c10_t one10 = 1.0 + 1.0 * I_;
        for (int i = 0; i < ITERS; i++) {
            __kmpc_atomic_fixed4_add(NULL, me, &i4, 1);
            __kmpc_atomic_fixed8_add(NULL, me, &i8, 2);
            __kmpc_atomic_fixed1u_div(NULL, me, &u1, 1);  // no-op updates through a CAS loop
            __kmpc_atomic_fixed1_add(NULL, me, (signed char*)&u1, 1);
            __kmpc_atomic_fixed8_max(NULL, me, &imax, (int64_t)i * 4 + omp_get_thread_num());
            __kmpc_atomic_float4_add(NULL, me, &f4, 1.0f);
            __kmpc_atomic_float8_add(NULL, me, &f8, 0.5);
            __kmpc_atomic_float10_add(NULL, me, &f10, 0.25L);
            __kmpc_atomic_cmplx4_add(NULL, me, &c4, 1.0f + 1.0f * I_);
            __kmpc_atomic_cmplx8_add(NULL, me, &c8, one8);
            __kmpc_atomic_cmplx10_add(NULL, me, &c10, one10);
            __kmpc_atomic_16(NULL, me, &g16, (void*)&one8, add_c8);
            __kmpc_atomic_32(NULL, me, &g32, (void*)&one10, add_c10);
            __kmpc_atomic_fixed4_add(NULL, me, &p.i4, 1);
            __kmpc_atomic_fixed8_sub(NULL, me, &p.i8, 1);
            int32_t seen = __kmpc_atomic_fixed4_rd(NULL, me, &cas_counter);
            while (!__kmpc_atomic_bool_4_cas(NULL, me, &cas_counter, seen, seen + 1))
                seen = __kmpc_atomic_fixed4_rd(NULL, me, &cas_counter);
            __kmpc_atomic_start();
            guarded[0]++;
            guarded[1] += 2;
            guarded[2] = guarded[0] + guarded[1];
            __kmpc_atomic_end();
        }
    }
    const int64_t n = (int64_t)nthreads * ITERS;
    CHECK(nthreads >= 2, "expected a team of 4 (at least 2), got %d", nthreads);
    CHECK(i4 == n && i8 == 2 * n, "fixed4/8 add: %d %lld", (int)i4, (long long)i8);
    CHECK(u1 == (unsigned char)n, "fixed1 add: %u", (unsigned)u1);
    CHECK(imax == (ITERS - 1) * 4 + nthreads - 1, "fixed8 max: %lld", (long long)imax);
    CHECK(f4 == (float)n && f8 == 0.5 * n && f10 == 0.25L * n, "float adds");
    CHECK(c4 == (float)n + (float)n * I_, "cmplx4 add");
    CHECK(c8 == (double)n + (double)n * I_ && g16 == c8, "cmplx8 add, generic 16");
    CHECK(c10 == (long double)n + (long double)n * I_ && g32 == c10, "cmplx10 add, generic 32");
    CHECK(p.i4 == n && p.i8 == -n, "misaligned fixed4/8: %d %lld", (int)p.i4, (long long)p.i8);
    CHECK(cas_counter == n, "bool_4_cas counter: %d", (int)cas_counter);
    CHECK(guarded[0] == n && guarded[2] == 3 * n, "atomic_start/end");
}

int main(void) {
    CHECK_FIXED(1, signed char, unsigned char);
    CHECK_FIXED(2, short, unsigned short);
    CHECK_FIXED(4, int32_t, uint32_t);
    CHECK_FIXED(8, int64_t, uint64_t);
    CHECK_FLOAT(float4, float);
    CHECK_FLOAT(float8, double);
    CHECK_FLOAT(float10, long double);
    {
        float x = 12.5f;
        __kmpc_atomic_float4_add_float8(NULL, gtid(), &x, 0.1);
        CHECK(x == (float)(12.5 + 0.1), "float4_add_float8");
        x = 12.5f;
        __kmpc_atomic_float4_sub_float8(NULL, gtid(), &x, 0.1);
        CHECK(x == (float)(12.5 - 0.1), "float4_sub_float8");
        x = 12.5f;
        __kmpc_atomic_float4_mul_float8(NULL, gtid(), &x, 0.1);
        CHECK(x == (float)(12.5 * 0.1), "float4_mul_float8");
        x = 12.5f;
        __kmpc_atomic_float4_div_float8(NULL, gtid(), &x, 0.1);
        CHECK(x == (float)(12.5 / 0.1), "float4_div_float8");
    }
    CHECK_CMPLX(cmplx8, c8_t);
    CHECK_CMPLX(cmplx10, c10_t);
    check_cmplx4();
    CHECK_CAS(1, signed char);
    CHECK_CAS(2, short);
    CHECK_CAS(4, int32_t);
    CHECK_CAS(8, int64_t);
    check_generic();
    check_contention();
    if (failures == 0) printf("atomic_entry_points: all passed\n");
    return failures == 0 ? 0 : 1;
}
