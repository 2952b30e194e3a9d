// Every `#pragma omp atomic` form on every scalar type clang 19 accepts, under
// contention (4 threads on this 2-core machine): update (x op= e, x = x op e,
// x = e op x, ++/--), capture (both orders, swap), read, write, compare (min, max,
// equality) and compare-capture. clang compiles these to atomic instructions (and, for
// long double, __float128, _Complex and __int128, to libatomic calls); none reaches
// the OpenMP runtime, so this checks that loom's teams run them correctly.
// loom-test: threads 4
// loom-test: libs -latomic
// loom-test: timeout 120
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond, ...)                                                \
    do {                                                                \
        if (!(cond)) {                                                  \
            failures++;                                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                 \
            printf(__VA_ARGS__);                                        \
            printf("\n");                                               \
        }                                                               \
    } while (0)

#define ITERS 2000

// Order-independent checks of the update and capture forms of type T (sums wrap the
// same way in the check for the narrow types).
#define TEST_ARITH(T, NAME)                                                              \
    static void test_##NAME(void) {                                                      \
        T x = 0, y = 0, z = 100;                                                         \
        int team = 0;                                                                    \
        _Pragma("omp parallel num_threads(4)")                                           \
        {                                                                                \
            _Pragma("omp single") team = omp_get_num_threads();                          \
            for (int i = 0; i < ITERS; i++) {                                            \
                _Pragma("omp atomic") x += 1;                                            \
                _Pragma("omp atomic update") x = x + 1;                                  \
                _Pragma("omp atomic") x = 1 + x;                                         \
                _Pragma("omp atomic") x++;                                               \
                _Pragma("omp atomic") ++x;                                               \
                _Pragma("omp atomic") x -= -1;                                           \
                _Pragma("omp atomic") z--;                                               \
                _Pragma("omp atomic") --z;                                               \
                _Pragma("omp atomic") z = z - 1;                                         \
                _Pragma("omp atomic") z = z + 3;                                         \
                T v;                                                                     \
                _Pragma("omp atomic capture") { v = y; y += 1; }                         \
                (void)v;                                                                 \
                T w;                                                                     \
                _Pragma("omp atomic capture") { y = y - 1; w = y; }                      \
                _Pragma("omp atomic capture") w = ++y;                                   \
                _Pragma("omp atomic capture") { w = y; y--; }                            \
                _Pragma("omp atomic capture") w = y++;                                   \
                _Pragma("omp atomic capture") { w = y; y = y + 1; }                      \
                (void)w;                                                                 \
            }                                                                            \
        }                                                                                \
        long long n = (long long)team * ITERS;                                           \
        CHECK((T)x == (T)(6 * n), #NAME " update: %lld", (long long)x);                  \
        CHECK((T)z == (T)100, #NAME " decrements: %lld", (long long)z);                  \
        CHECK((T)y == (T)(2 * n), #NAME " capture net: %lld", (long long)y);                 \
    }

TEST_ARITH(char, char)
TEST_ARITH(unsigned char, uchar)
TEST_ARITH(short, short)
TEST_ARITH(unsigned short, ushort)
TEST_ARITH(int, int)
TEST_ARITH(unsigned int, uint)
TEST_ARITH(long, long)
TEST_ARITH(unsigned long, ulong)
TEST_ARITH(long long, llong)
TEST_ARITH(__int128, i128)
TEST_ARITH(float, float)
TEST_ARITH(double, double)
TEST_ARITH(long double, ldouble)
TEST_ARITH(__float128, f128)

// Bitwise, shift and multiplicative forms: every thread applies an operation and its
// inverse, or touches only its own bits, so the result is known.
#define TEST_BITS(T, NAME)                                                               \
    static void test_bits_##NAME(void) {                                                 \
        T o = 0, a = (T)~(T)0, xr = 0, m = 3, s = 5;                                     \
        _Pragma("omp parallel num_threads(4)")                                           \
        {                                                                                \
            T bit = (T)((T)1 << omp_get_thread_num());                                   \
            for (int i = 0; i < ITERS; i++) {                                            \
                _Pragma("omp atomic") o |= bit;                                          \
                _Pragma("omp atomic") a &= (T)~bit;                                      \
                _Pragma("omp atomic") xr ^= bit;                                         \
                _Pragma("omp atomic") xr = bit ^ xr;                                     \
                _Pragma("omp atomic") o = o | bit;                                       \
                _Pragma("omp atomic") a = (T)~bit & a;                                   \
                _Pragma("omp atomic") m *= 1;                                            \
                _Pragma("omp atomic") m = m / 1;                                         \
                _Pragma("omp atomic") s <<= 0;                                           \
                _Pragma("omp atomic") s >>= 0;                                           \
                _Pragma("omp atomic") s = s << 0;                                        \
                _Pragma("omp atomic") s = s >> 0;                                        \
            }                                                                            \
        }                                                                                \
        T team_bits = 0;                                                                 \
        for (int t = 0; t < 4; t++) team_bits |= (T)((T)1 << t);                         \
        CHECK((o & ~team_bits) == 0 && (o & 1), #NAME " |=");                            \
        CHECK((a | o) == (T)~(T)0 && (a & o) == 0, #NAME " &=");                         \
        CHECK(xr == 0, #NAME " ^=");                                                     \
        CHECK(m == 3 && s == 5, #NAME " *= /= <<= >>=");                                 \
        /* Serial values of the non-commutative forms. */                                \
        T x = 7;                                                                         \
        _Pragma("omp atomic") x *= 6;                                                    \
        CHECK(x == 42, #NAME " *=");                                                     \
        _Pragma("omp atomic") x /= 2;                                                    \
        CHECK(x == 21, #NAME " /=");                                                     \
        _Pragma("omp atomic") x = 84 / x;                                                \
        CHECK(x == 4, #NAME " x = e / x");                                               \
        _Pragma("omp atomic") x = 9 - x;                                                 \
        CHECK(x == 5, #NAME " x = e - x");                                               \
        _Pragma("omp atomic") x <<= 3;                                                   \
        CHECK(x == 40, #NAME " <<=");                                                    \
        _Pragma("omp atomic") x >>= 2;                                                   \
        CHECK(x == 10, #NAME " >>=");                                                    \
        _Pragma("omp atomic") x = 1 << x;                                                \
        CHECK(x == (T)1024 || sizeof(T) == 1, #NAME " x = e << x");                      \
        x = 2;                                                                           \
        _Pragma("omp atomic") x = 64 >> x;                                               \
        CHECK(x == 16, #NAME " x = e >> x");                                             \
    }

TEST_BITS(char, char)
TEST_BITS(unsigned char, uchar)
TEST_BITS(short, short)
TEST_BITS(unsigned short, ushort)
TEST_BITS(int, int)
TEST_BITS(unsigned int, uint)
TEST_BITS(long, long)
TEST_BITS(unsigned long, ulong)
TEST_BITS(long long, llong)
TEST_BITS(__int128, i128)

// compare forms (OpenMP 5.1): min, max, equality, and compare-capture as a CAS loop.
#define TEST_COMPARE(T, NAME)                                                            \
    static void test_compare_##NAME(void) {                                              \
        T mx = 0, mn = 1000, cnt = 0, flag = 0;                                          \
        int winners = 0, team = 0;                                                       \
        _Pragma("omp parallel num_threads(4) reduction(+ : winners)")                    \
        {                                                                                \
            _Pragma("omp single") team = omp_get_num_threads();                          \
            int me = omp_get_thread_num();                                               \
            for (int i = 0; i < ITERS; i++) {                                            \
                T e = (T)((i * 7 + me * 13) % 500 + 1);                                  \
                _Pragma("omp atomic compare") if (mx < e) { mx = e; }                    \
                _Pragma("omp atomic compare") mn = mn > e ? e : mn;                      \
                T seen, want;                                                            \
                _Pragma("omp atomic read") seen = cnt;                                   \
                for (;;) {                                                               \
                    want = seen + 1;                                                     \
                    T old;                                                               \
                    _Pragma("omp atomic compare capture") { old = cnt; if (cnt == seen) { cnt = want; } } \
                    if (old == seen) break;                                              \
                    seen = old;                                                          \
                }                                                                        \
            }                                                                            \
            T old;                                                                       \
            _Pragma("omp atomic compare capture") { old = flag; if (flag == 0) { flag = (T)(me + 1); } } \
            if (old == 0) winners++;                                                     \
        }                                                                                \
        CHECK(mx == 500 && mn == 1, #NAME " compare max/min: %g %g", (double)mx, (double)mn); \
        CHECK(cnt == (T)(team * ITERS), #NAME " compare-capture CAS: %g", (double)cnt);   \
        CHECK(winners == 1 && flag != 0, #NAME " exactly one winner: %d", winners);      \
    }

TEST_COMPARE(short, short)
TEST_COMPARE(int, int)
TEST_COMPARE(unsigned int, uint)
TEST_COMPARE(long, long)
TEST_COMPARE(unsigned long long, ullong)
TEST_COMPARE(float, float)
TEST_COMPARE(double, double)

// Complex types: update, capture, read and write (no compare, no bitwise).
#define TEST_COMPLEX(T, NAME)                                                            \
    static void test_complex_##NAME(void) {                                              \
        T x = 0, y = 0, w = 0;                                                           \
        int team = 0;                                                                    \
        const T one = 1.0 + 2.0 * (__extension__ 1.0iF);                                 \
        const T vals[2] = {one, 3.0 * one};                                              \
        int torn = 0;                                                                    \
        _Pragma("omp parallel num_threads(4) reduction(+ : torn)")                       \
        {                                                                                \
            _Pragma("omp single") team = omp_get_num_threads();                          \
            int me = omp_get_thread_num();                                               \
            for (int i = 0; i < ITERS; i++) {                                            \
                _Pragma("omp atomic") x += one;                                          \
                _Pragma("omp atomic") x = x - one;                                       \
                _Pragma("omp atomic") x = one + x;                                       \
                T v;                                                                     \
                _Pragma("omp atomic capture") { v = y; y = y + one; }                    \
                _Pragma("omp atomic capture") { y = y * 1.0; v = y; }                    \
                _Pragma("omp atomic capture") { v = y; y = y / 1.0; }                    \
                (void)v;                                                                 \
                if (me % 2 == 0) {                                                       \
                    _Pragma("omp atomic write") w = vals[i % 2];                         \
                } else {                                                                 \
                    T r;                                                                 \
                    _Pragma("omp atomic read") r = w;                                    \
                    if (r != 0 && r != vals[0] && r != vals[1]) torn++;                  \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        const T want = (T)(team * ITERS) * one;                                          \
        CHECK(x == want, #NAME " update");                                               \
        CHECK(y == want, #NAME " capture");                                              \
        CHECK(torn == 0, #NAME " read/write tore %d times", torn);                       \
        T s = one;                                                                       \
        _Pragma("omp atomic") s = 3.0 * one - s;                                         \
        CHECK(s == 2.0 * one, #NAME " x = e - x");                                       \
        _Pragma("omp atomic") s = (4.0 * one) / s;                                       \
        CHECK(s == 2.0, #NAME " x = e / x");                                             \
        _Pragma("omp atomic") s *= one;                                                  \
        CHECK(s == 2.0 * one, #NAME " *=");                                              \
    }

TEST_COMPLEX(float _Complex, cfloat)
TEST_COMPLEX(double _Complex, cdouble)
TEST_COMPLEX(long double _Complex, cldouble)

// Read/write of wide types must never tear.
#define TEST_RW(T, NAME, A, B)                                                           \
    static void test_rw_##NAME(void) {                                                   \
        T w = (A);                                                                       \
        int torn = 0;                                                                    \
        _Pragma("omp parallel num_threads(4) reduction(+ : torn)")                       \
        {                                                                                \
            int me = omp_get_thread_num();                                               \
            for (int i = 0; i < 4 * ITERS; i++) {                                        \
                if (me < 2) {                                                            \
                    T v = (i % 2) ? (A) : (B);                                           \
                    _Pragma("omp atomic write") w = v;                                   \
                } else {                                                                 \
                    T r;                                                                 \
                    _Pragma("omp atomic read") r = w;                                    \
                    if (r != (A) && r != (B)) torn++;                                    \
                }                                                                        \
                T old;                                                                   \
                _Pragma("omp atomic capture") { old = w; w = (A); }                      \
                if (old != (A) && old != (B)) torn++;                                    \
            }                                                                            \
        }                                                                                \
        CHECK(torn == 0, #NAME " read/write/swap tore %d times", torn);                  \
    }

TEST_RW(long double, ldouble, 1.0L / 3.0L, -2.0L / 7.0L)
TEST_RW(__float128, f128, (__float128)1 / 3, -(__float128)2 / 7)
TEST_RW(__int128, i128, ((__int128)0x0123456789abcdefLL << 64) | 0x0fedcba987654321LL, -(__int128)1)
TEST_RW(double, double, 1.0 / 3.0, -2.0 / 7.0)
TEST_RW(long long, llong, 0x0123456789abcdefLL, -0x0fedcba987654321LL)

int main(void) {
    test_char(); test_uchar(); test_short(); test_ushort(); test_int(); test_uint();
    test_long(); test_ulong(); test_llong(); test_i128(); test_float(); test_double();
    test_ldouble(); test_f128();
    test_bits_char(); test_bits_uchar(); test_bits_short(); test_bits_ushort();
    test_bits_int(); test_bits_uint(); test_bits_long(); test_bits_ulong();
    test_bits_llong(); test_bits_i128();
    test_compare_short(); test_compare_int(); test_compare_uint(); test_compare_long();
    test_compare_ullong(); test_compare_float(); test_compare_double();
    test_complex_cfloat(); test_complex_cdouble(); test_complex_cldouble();
    test_rw_ldouble(); test_rw_f128(); test_rw_i128(); test_rw_double(); test_rw_llong();
    if (failures == 0) printf("atomic_pragmas: all passed\n");
    return failures == 0 ? 0 : 1;
}
