// reduce, transform_reduce and the scans of loom/numeric.hpp, and
// experimental::for_loop with reductions and inductions, against the serial results
// under every policy and chunk parameter.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "algorithm_support.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/for_loop.hpp"
#include "loom/numeric.hpp"

namespace {

using loom_test::for_each_policy;
using loom_test::random_ints;
using loom_test::sizes;
namespace ex = loom::execution;
namespace lx = loom::experimental;

#define TRACE_CASE(name, n) SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n))

TEST(Numeric, ReduceAllForms) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            std::vector<long> v(n);
            const auto r = random_ints(n, -1000, 1000);
            std::copy(r.begin(), r.end(), v.begin());
            EXPECT_EQ(loom::reduce(pol, v.begin(), v.end()), std::reduce(v.begin(), v.end()));
            EXPECT_EQ(loom::reduce(pol, v.begin(), v.end(), 5L), std::reduce(v.begin(), v.end(), 5L));
            auto mx = [](long a, long b) { return a > b ? a : b; };
            EXPECT_EQ(loom::reduce(pol, v.begin(), v.end(), -5000L, mx), std::reduce(v.begin(), v.end(), -5000L, mx));
            // unsigned wrap-around: exact whatever the grouping
            std::vector<std::uint32_t> u(n);
            for (std::size_t i = 0; i < n; ++i) u[i] = std::uint32_t(r[i]) * 2654435761u;
            EXPECT_EQ(loom::reduce(pol, u.begin(), u.end(), 1u, std::multiplies<>{}),
                      std::reduce(u.begin(), u.end(), 1u, std::multiplies<>{}));
        }
    });
}

TEST(Numeric, TransformReduceBothForms) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto a = random_ints(n, -100, 100, 1);
            const auto b = random_ints(n, -100, 100, 2);
            EXPECT_EQ(loom::transform_reduce(pol, a.begin(), a.end(), b.begin(), 3L),
                      std::transform_reduce(a.begin(), a.end(), b.begin(), 3L));
            auto absdiff = [](int x, int y) { return long(x > y ? x - y : y - x); };
            EXPECT_EQ(loom::transform_reduce(pol, a.begin(), a.end(), b.begin(), 0L, std::plus<>{}, absdiff),
                      std::transform_reduce(a.begin(), a.end(), b.begin(), 0L, std::plus<>{}, absdiff));
            // Non-trivially-copyable elements, transformed to their length.
            const auto s = loom_test::random_strings(n);
            auto len = [](const std::string& x) { return x.size(); };
            EXPECT_EQ(loom::transform_reduce(pol, s.begin(), s.end(), std::size_t(0), std::plus<>{}, len),
                      std::transform_reduce(s.begin(), s.end(), std::size_t(0), std::plus<>{}, len));
        }
    });
}

TEST(Numeric, InclusiveAndExclusiveScans) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto v = random_ints(n, -1000, 1000);
            std::vector<long> got(n), expect(n);
            std::inclusive_scan(v.begin(), v.end(), expect.begin());
            EXPECT_EQ(loom::inclusive_scan(pol, v.begin(), v.end(), got.begin()), got.end());
            EXPECT_EQ(got, expect);
            std::inclusive_scan(v.begin(), v.end(), expect.begin(), std::plus<>{}, 10L);
            loom::inclusive_scan(pol, v.begin(), v.end(), got.begin(), std::plus<>{}, 10L);
            EXPECT_EQ(got, expect);
            std::exclusive_scan(v.begin(), v.end(), expect.begin(), 10L);
            EXPECT_EQ(loom::exclusive_scan(pol, v.begin(), v.end(), got.begin(), 10L), got.end());
            EXPECT_EQ(got, expect);
            auto mx = [](long a, long b) { return a > b ? a : b; };
            std::exclusive_scan(v.begin(), v.end(), expect.begin(), -5000L, mx);
            loom::exclusive_scan(pol, v.begin(), v.end(), got.begin(), -5000L, mx);
            EXPECT_EQ(got, expect);
        }
    });
}

TEST(Numeric, TransformScans) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto v = random_ints(n, -1000, 1000);
            std::vector<long> got(n), expect(n);
            auto sq = [](int x) { return long(x) * x; };
            std::transform_inclusive_scan(v.begin(), v.end(), expect.begin(), std::plus<>{}, sq);
            loom::transform_inclusive_scan(pol, v.begin(), v.end(), got.begin(), std::plus<>{}, sq);
            EXPECT_EQ(got, expect);
            std::transform_inclusive_scan(v.begin(), v.end(), expect.begin(), std::plus<>{}, sq, -7L);
            loom::transform_inclusive_scan(pol, v.begin(), v.end(), got.begin(), std::plus<>{}, sq, -7L);
            EXPECT_EQ(got, expect);
            std::transform_exclusive_scan(v.begin(), v.end(), expect.begin(), 1L, std::plus<>{}, sq);
            loom::transform_exclusive_scan(pol, v.begin(), v.end(), got.begin(), 1L, std::plus<>{}, sq);
            EXPECT_EQ(got, expect);
        }
    });
}

TEST(Numeric, ScansKeepTheOrderOfANonCommutativeOperation) {
    // String concatenation is associative, not commutative: any reordering shows.
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(300), std::size_t(3000)}) {
            TRACE_CASE(name, n);
            std::vector<std::string> v(n);
            for (std::size_t i = 0; i < n; ++i) v[i] = std::string(1, char('a' + i % 26));
            std::vector<std::string> got(n), expect(n);
            std::inclusive_scan(v.begin(), v.end(), expect.begin(), std::plus<>{});
            loom::inclusive_scan(pol, v.begin(), v.end(), got.begin(), std::plus<>{});
            EXPECT_EQ(got, expect);
            std::exclusive_scan(v.begin(), v.end(), expect.begin(), std::string(">"), std::plus<>{});
            loom::exclusive_scan(pol, v.begin(), v.end(), got.begin(), std::string(">"), std::plus<>{});
            EXPECT_EQ(got, expect);
        }
    });
}

TEST(Numeric, ScansInPlace) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            auto v = random_ints(n, -1000, 1000);
            auto w = v;
            std::vector<int> expect(n);
            std::inclusive_scan(v.begin(), v.end(), expect.begin());
            loom::inclusive_scan(pol, v.begin(), v.end(), v.begin());
            EXPECT_EQ(v, expect);
            std::exclusive_scan(w.begin(), w.end(), expect.begin(), 3);
            loom::exclusive_scan(pol, w.begin(), w.end(), w.begin(), 3);
            EXPECT_EQ(w, expect);
        }
    });
}

// Sums of 4- and 8-byte integers take the vector kernel (algorithm_integer_scan.hpp):
// every width and sign, lengths around its rounds (8 int32 / 4 int64 per round) and
// the thresholds, full-range values so that sums wrap, against an element-by-element
// reference computed in unsigned arithmetic (where a wrapping signed sum is defined).
template <class T>
void check_integer_sum_scans(std::size_t n) {
    using U = std::make_unsigned_t<T>;
    std::mt19937_64 gen(n * 7919 + sizeof(T));
    std::vector<T> v(n);
    for (T& x : v) x = T(U(gen()));
    std::vector<T> inclusive(n), exclusive(n), from_init(n);
    const T init = T(U(0x9e3779b97f4a7c15ull));
    U a = 0, b = U(init);
    for (std::size_t i = 0; i < n; ++i) {
        exclusive[i] = T(b);
        a = U(a + U(v[i]));
        b = U(b + U(v[i]));
        inclusive[i] = T(a);
        from_init[i] = T(b);
    }
    for_each_policy([&](const auto& pol, const char* name) {
        TRACE_CASE(name, n);
        std::vector<T> got(n);
        EXPECT_EQ(loom::inclusive_scan(pol, v.begin(), v.end(), got.begin()), got.end());
        EXPECT_EQ(got, inclusive);
        loom::inclusive_scan(pol, v.begin(), v.end(), got.begin(), std::plus<T>{}, init);
        EXPECT_EQ(got, from_init);
        EXPECT_EQ(loom::exclusive_scan(pol, v.begin(), v.end(), got.begin(), init), got.end());
        EXPECT_EQ(got, exclusive);
        got = v;
        loom::inclusive_scan(pol, got.begin(), got.end(), got.begin());
        EXPECT_EQ(got, inclusive);
        got = v;
        loom::exclusive_scan(pol, got.data(), got.data() + n, got.data(), init);
        EXPECT_EQ(got, exclusive);
    });
}

TEST(Numeric, IntegerSumScansOfEveryWidthMatchTheElementByElementScan) {
#if defined(__SSE2__)
    using It64 = std::vector<std::int64_t>::iterator;
    static_assert(loom::detail::integer_sum_scan<It64, It64, std::int64_t, std::plus<>, loom::detail::identity_fn>);
    static_assert(loom::detail::integer_sum_scan<unsigned*, unsigned*, unsigned, std::plus<unsigned>,
                                                 loom::detail::identity_fn>);
#endif
    // Conversions and other operations keep the element-by-element loop.
    static_assert(!loom::detail::integer_sum_scan<int*, long*, long, std::plus<>, loom::detail::identity_fn>);
    static_assert(!loom::detail::integer_sum_scan<int*, int*, int, std::plus<long>, loom::detail::identity_fn>);
    static_assert(!loom::detail::integer_sum_scan<short*, short*, short, std::plus<>, loom::detail::identity_fn>);
    static_assert(!loom::detail::integer_sum_scan<int*, int*, int, std::multiplies<>, loom::detail::identity_fn>);
    for (std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 16383, 16384, 16385, 100003}) {
        check_integer_sum_scans<std::int32_t>(n);
        check_integer_sum_scans<std::uint32_t>(n);
        check_integer_sum_scans<std::int64_t>(n);
        check_integer_sum_scans<std::uint64_t>(n);
    }
}

#if defined(__SSE2__)
// Each integer kernel on its own, whatever this processor would pick: the 16-byte one
// always, the 64-byte one where the processor has AVX-512F (the dispatch picks it for
// 64 elements and more, so the scans above exercise only one of them on a given
// machine). Lengths around both kernels' rounds, starts off every alignment, in place
// and not, full-range values so that sums wrap.
template <bool Inclusive, class T, class Kernel>
void check_integer_kernel(Kernel kernel, const char* name) {
    using U = std::make_unsigned_t<T>;
    std::mt19937_64 gen(sizeof(T) * 31 + Inclusive);
    std::vector<T> v(300);
    for (T& x : v) x = T(U(gen()));
    const T start = T(U(0xc2b2ae3d27d4eb4full));
    for (std::size_t offset = 0; offset < 4; ++offset) {
        for (std::size_t n : {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 127, 128, 129, 250}) {
            SCOPED_TRACE(std::string(name) + " offset " + std::to_string(offset) + " n " + std::to_string(n));
            const T* in = v.data() + offset;
            std::vector<T> expect(n);
            U sum = U(start);
            for (std::size_t i = 0; i < n; ++i) {
                if (!Inclusive) expect[i] = T(sum);
                sum = U(sum + U(in[i]));
                if (Inclusive) expect[i] = T(sum);
            }
            std::vector<T> got(n + 1, T(0x5a));
            EXPECT_EQ(kernel(in, got.data(), n, start), T(sum));
            EXPECT_TRUE(std::equal(expect.begin(), expect.end(), got.begin()));
            EXPECT_EQ(got[n], T(0x5a)) << "wrote past the end";
            std::vector<T> same(in, in + n);
            EXPECT_EQ(kernel(same.data(), same.data(), n, start), T(sum));
            EXPECT_EQ(same, expect) << "in place";
        }
    }
}

template <class T>
void check_integer_kernels() {
    using namespace loom::detail;
    check_integer_kernel<true, T>(integer_sum_scan_sse2<true, T>, "sse2 inclusive");
    check_integer_kernel<false, T>(integer_sum_scan_sse2<false, T>, "sse2 exclusive");
#if LOOM_SCAN_AVX512
    if (cpu_has_avx512f()) {
        check_integer_kernel<true, T>(integer_sum_scan_avx512<true, T>, "avx512 inclusive");
        check_integer_kernel<false, T>(integer_sum_scan_avx512<false, T>, "avx512 exclusive");
    }
#endif
}

TEST(Numeric, EveryIntegerScanKernelMatchesTheElementByElementScan) {
    check_integer_kernels<std::int32_t>();
    check_integer_kernels<std::uint32_t>();
    check_integer_kernels<std::int64_t>();
    check_integer_kernels<std::uint64_t>();
}
#endif

// An affine map x -> a x + b; composing them (first f, then g) is associative and not
// commutative, and exact in unsigned wrap-around, so any regrouping that reorders
// chunks shows at every size.
struct affine {
    std::uint32_t a = 1, b = 0;
    bool operator==(const affine&) const = default;
};
affine then_apply(affine f, affine g) { return {g.a * f.a, g.a * f.b + g.b}; }

TEST(Numeric, ScansOfManyChunksKeepTheOrderOfANonCommutativeOperation) {
    // 300000 elements: many cache-sized chunks by default, so look-backs cross several
    // chunks that have published only their own aggregate.
    const std::size_t n = 300000;
    std::vector<affine> v(n);
    const auto r = random_ints(n, 1, 1 << 20);
    for (std::size_t i = 0; i < n; ++i) v[i] = {std::uint32_t(r[i]) * 2u + 1u, std::uint32_t(r[i]) ^ 0x5bd1e995u};
    std::vector<affine> inc(n), exc(n);
    std::inclusive_scan(v.begin(), v.end(), inc.begin(), then_apply);
    std::exclusive_scan(v.begin(), v.end(), exc.begin(), affine{3, 7}, then_apply);
    for_each_policy([&](const auto& pol, const char* name) {
        TRACE_CASE(name, n);
        std::vector<affine> got(n);
        loom::inclusive_scan(pol, v.begin(), v.end(), got.begin(), then_apply);
        EXPECT_TRUE(got == inc);
        loom::exclusive_scan(pol, v.begin(), v.end(), got.begin(), affine{3, 7}, then_apply);
        EXPECT_TRUE(got == exc);
        got = v;
        loom::inclusive_scan(pol, got.begin(), got.end(), got.begin(), then_apply);
        EXPECT_TRUE(got == inc);
    });
}

TEST(Numeric, AScanDoesNotWaitForEverForAChunkWhoseLaneStalls) {
    // The lane that takes chunk 0 stalls on its first element until the last element
    // has been transformed. A look-back that waited for chunk 0's aggregate would never
    // let the other lane get there: it must fold chunk 0 itself.
    if (loom::ext::worker_count() < 2) GTEST_SKIP() << "needs two lanes";
    const std::size_t n = 100000;
    std::vector<long> v(n, 1), got(n);
    std::atomic<bool> first_seen{false}, last_seen{false}, gave_up{false};
    auto stall_once = [&](const long& x) {
        const std::size_t i = std::size_t(&x - v.data());
        if (i == n - 1) last_seen.store(true);
        if (i == 0 && !first_seen.exchange(true)) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (!last_seen.load()) {
                if (std::chrono::steady_clock::now() > give_up) {
                    gave_up.store(true);
                    break;
                }
                std::this_thread::yield();
            }
        }
        return x;
    };
    loom::transform_inclusive_scan(ex::par, v.begin(), v.end(), got.begin(), std::plus<>{}, stall_once);
    EXPECT_FALSE(gave_up.load()) << "the scan waited for the stalled chunk";
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], long(i + 1)) << "at " << i;
}

TEST(ForLoop, ReductionsAndInductions) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto v = random_ints(n, -1000, 1000);
            long sum = 100;
            int biggest = -5000;
            long ind = 3;
            std::vector<long> seen(n);
            lx::for_loop(pol, std::size_t(0), n, lx::reduction(sum, 0L, std::plus<>{}),
                         lx::induction(ind, 5),
                         lx::reduction(biggest, -5000, [](int a, int b) { return a > b ? a : b; }),
                         [&](std::size_t i, long& s, long& k, int& m) {
                             s += v[i];
                             seen[i] = k;
                             if (v[i] > m) m = v[i];
                         });
            EXPECT_EQ(sum, 100 + std::accumulate(v.begin(), v.end(), 0L));
            EXPECT_EQ(biggest, n == 0 ? -5000 : *std::max_element(v.begin(), v.end()));
            EXPECT_EQ(ind, 3 + 5 * long(n));  // live-out value, as after a serial loop
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 3 + 5 * long(i));
        }
    });
}

TEST(ForLoop, IteratorsAndIntegers) {
    std::vector<int> v(1000);
    lx::for_loop(ex::par, v.begin(), v.end(), [&](std::vector<int>::iterator it) { *it = int(it - v.begin()); });
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[std::size_t(i)], i);
    long total = 0;
    lx::for_loop(-10, 10, lx::reduction(total, 0L, std::plus<>{}), [](int i, long& t) { t += i; });  // sequential
    EXPECT_EQ(total, -10);
    int count = 0;
    lx::for_loop_n(ex::par, 5, 7, lx::reduction(count, 0, std::plus<>{}), [](int, int& c) { ++c; });
    EXPECT_EQ(count, 7);
    lx::for_loop(ex::par, 10, 0, [](int) { FAIL() << "empty range ran"; });
}

}  // namespace
