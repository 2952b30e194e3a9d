// The parallel algorithms of loom/algorithm.hpp against their std:: serial results,
// under every policy and chunk parameter, at sizes 0 .. 10^5; move-only and
// non-trivially-copyable elements where the standard allows them.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <list>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "algorithm_support.hpp"
#include "loom/algorithm.hpp"
#include "loom/runtime.hpp"

namespace {

using loom_test::for_each_policy;
using loom_test::for_seq_and_par;
using loom_test::random_ints;
using loom_test::sizes;
namespace ex = loom::execution;

#define TRACE_CASE(name, n) SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n))

TEST(Algorithms, ForEachAndForEachN) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            auto v = random_ints(n, -1000, 1000);
            auto expect = v;
            std::for_each(expect.begin(), expect.end(), [](int& x) { x = 3 * x + 1; });
            loom::for_each(pol, v.begin(), v.end(), [](int& x) { x = 3 * x + 1; });
            EXPECT_EQ(v, expect);
            std::atomic<long> sum{0};
            auto end = loom::for_each_n(pol, v.begin(), n / 2, [&](int x) { sum += x; });
            EXPECT_EQ(end, v.begin() + long(n / 2));
            EXPECT_EQ(sum.load(), std::accumulate(v.begin(), v.begin() + long(n / 2), 0L));
        }
    });
}

TEST(Algorithms, TransformUnaryAndBinary) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto a = random_ints(n, -1000, 1000, 1);
            const auto b = random_ints(n, -1000, 1000, 2);
            std::vector<long> out(n), expect(n);
            auto sq = [](int x) { return long(x) * x; };
            std::transform(a.begin(), a.end(), expect.begin(), sq);
            EXPECT_EQ(loom::transform(pol, a.begin(), a.end(), out.begin(), sq), out.end());
            EXPECT_EQ(out, expect);
            auto mul = [](int x, int y) { return long(x) * y; };
            std::transform(a.begin(), a.end(), b.begin(), expect.begin(), mul);
            EXPECT_EQ(loom::transform(pol, a.begin(), a.end(), b.begin(), out.begin(), mul), out.end());
            EXPECT_EQ(out, expect);
        }
    });
}

TEST(Algorithms, CopyCopyIfFillGenerate) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto strings = loom_test::random_strings(n);  // not trivially copyable
            std::vector<std::string> out(n);
            EXPECT_EQ(loom::copy(pol, strings.begin(), strings.end(), out.begin()), out.end());
            EXPECT_EQ(out, strings);

            auto longish = [](const std::string& s) { return s.size() > 6; };
            std::vector<std::string> expect;
            std::copy_if(strings.begin(), strings.end(), std::back_inserter(expect), longish);
            std::vector<std::string> got(n);
            auto end = loom::copy_if(pol, strings.begin(), strings.end(), got.begin(), longish);
            got.erase(end, got.end());
            EXPECT_EQ(got, expect);

            loom::fill(pol, out.begin(), out.end(), std::string("loom"));
            EXPECT_EQ(std::count(out.begin(), out.end(), "loom"), long(n));

            std::vector<int> g(n, 0);
            loom::generate(pol, g.begin(), g.end(), [] { return 7; });
            EXPECT_EQ(std::count(g.begin(), g.end(), 7), long(n));
        }
    });
}

TEST(Algorithms, CountFindAndPredicates) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto v = random_ints(n, 0, 50);
            EXPECT_EQ(loom::count(pol, v.begin(), v.end(), 7), std::count(v.begin(), v.end(), 7));
            auto odd = [](int x) { return x % 2 != 0; };
            EXPECT_EQ(loom::count_if(pol, v.begin(), v.end(), odd), std::count_if(v.begin(), v.end(), odd));
            for (int x : {0, 25, 50, 51}) {
                EXPECT_EQ(loom::find(pol, v.begin(), v.end(), x), std::find(v.begin(), v.end(), x));
            }
            auto big = [](int x) { return x > 48; };
            EXPECT_EQ(loom::find_if(pol, v.begin(), v.end(), big), std::find_if(v.begin(), v.end(), big));
            for (int limit : {-1, 0, 25, 50}) {
                auto above = [limit](int x) { return x > limit; };
                EXPECT_EQ(loom::any_of(pol, v.begin(), v.end(), above), std::any_of(v.begin(), v.end(), above));
                EXPECT_EQ(loom::all_of(pol, v.begin(), v.end(), above), std::all_of(v.begin(), v.end(), above));
                EXPECT_EQ(loom::none_of(pol, v.begin(), v.end(), above), std::none_of(v.begin(), v.end(), above));
            }
        }
    });
}

TEST(Algorithms, MinMaxElementPickTheStandardsTies) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto v = random_ints(n, 0, 20);  // many equal minima and maxima
            EXPECT_EQ(loom::min_element(pol, v.begin(), v.end()), std::min_element(v.begin(), v.end()));
            EXPECT_EQ(loom::max_element(pol, v.begin(), v.end()), std::max_element(v.begin(), v.end()));
            EXPECT_EQ(loom::minmax_element(pol, v.begin(), v.end()), std::minmax_element(v.begin(), v.end()));
            auto desc = std::greater<>{};
            EXPECT_EQ(loom::min_element(pol, v.begin(), v.end(), desc), std::min_element(v.begin(), v.end(), desc));
            EXPECT_EQ(loom::minmax_element(pol, v.begin(), v.end(), desc),
                      std::minmax_element(v.begin(), v.end(), desc));
        }
    });
}

TEST(Algorithms, SortInputPatternsAroundBlockSizes) {
    // The block quicksort partitions in blocks of 64 and finishes ranges of up to 24
    // by insertion; int keys under std::less are radix-sorted (below 256 elements by
    // the block quicksort) after block partitions above the radix scratch (65536
    // ints). Sizes around those, and the input shapes that stress a quicksort
    // (sorted, reversed, all equal, two values, organ pipe). The doubles sorted
    // descending go through the radix sort's complemented keys, the record sorted
    // by a lambda through the block quicksort alone.
    auto shapes = [](std::size_t n) {
        std::vector<std::vector<int>> out;
        out.push_back(random_ints(n, 0, 1 << 30));
        out.push_back(random_ints(n, 0, 1));
        std::vector<int> v(n);
        std::iota(v.begin(), v.end(), 0);
        out.push_back(v);
        std::reverse(v.begin(), v.end());
        out.push_back(v);
        out.emplace_back(n, 7);
        for (std::size_t i = 0; i < n; ++i) v[i] = int(std::min(i, n - 1 - i));
        out.push_back(v);
        return out;
    };
    auto run = [&](const auto& pol) {
        for (std::size_t n : {0UL, 1UL, 3UL, 23UL, 24UL, 25UL, 128UL, 129UL, 130UL, 131UL, 255UL, 256UL, 257UL, 4097UL,
                              65537UL}) {
            for (auto& v : shapes(n)) {
                auto expect = v;
                std::sort(expect.begin(), expect.end());
                auto got = v;
                loom::sort(pol, got.begin(), got.end());
                EXPECT_EQ(got, expect) << n;
                std::vector<double> d(v.begin(), v.end());
                std::vector<double> de(d);
                std::sort(de.begin(), de.end(), std::greater<>{});
                loom::sort(pol, d.begin(), d.end(), std::greater<>{});
                EXPECT_EQ(d, de) << n;
            }
        }
    };
    for_seq_and_par([&](const auto& pol, const char*) { run(pol); });
    // A small trivially copyable record sorted by one field: keys in order, every
    // record kept.
    struct rec {
        int key;
        int id;
    };
    const auto keys = random_ints(100000, 0, 100);
    std::vector<rec> r(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) r[i] = {keys[i], int(i)};
    loom::sort(ex::par, r.begin(), r.end(), [](const rec& a, const rec& b) { return a.key < b.key; });
    EXPECT_TRUE(std::is_sorted(r.begin(), r.end(), [](const rec& a, const rec& b) { return a.key < b.key; }));
    std::vector<int> ids(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) ids[i] = r[i].id;
    std::sort(ids.begin(), ids.end());
    for (std::size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], int(i));
    for (std::size_t i = 0; i < r.size(); ++i) ASSERT_EQ(r[i].key, keys[std::size_t(r[i].id)]);
}

// Keys the radix sort takes (integers of every width and sign, IEEE floats) under
// every comparator it recognises, at sizes around its thresholds: below the radix
// minimum (block sort), one radix-sorted range, and ranges partitioned first because
// they exceed the scratch. Random bits, so every byte of the key matters, plus the
// extremes of the type; floats also get zeros of both signs, infinities and
// subnormals.
template <class T>
std::vector<T> radix_test_keys(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::vector<T> v(n);
    for (auto& x : v) {
        const std::uint64_t bits = gen();
        if constexpr (std::is_floating_point_v<T>) {
            x = T(std::ldexp(double(std::int64_t(bits)), int(bits % 41) - 80));
        } else {
            std::memcpy(&x, &bits, sizeof(T));
        }
    }
    std::vector<T> special = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), T(0), T(1)};
    if constexpr (std::is_floating_point_v<T>) {
        special.insert(special.end(), {T(-0.0), std::numeric_limits<T>::infinity(),
                                       -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::denorm_min(),
                                       -std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min()});
    } else {
        special.push_back(std::numeric_limits<T>::min());
        if constexpr (std::is_signed_v<T>) special.push_back(T(-1));
    }
    for (std::size_t i = 0; i < special.size() && i < n; ++i) v[(i * 7919) % n] = special[i];
    return v;
}

template <class T, class Comp>
void expect_radix_sort_matches_std(std::size_t n, Comp comp) {
    static_assert(loom::detail::radix_sortable<typename std::vector<T>::iterator, Comp>);
    for (std::uint64_t seed : {1u, 2u}) {
        const auto keys = radix_test_keys<T>(n, seed + n);
        auto expect = keys;
        std::sort(expect.begin(), expect.end(), comp);
        for_seq_and_par([&](const auto& pol, const char* name) {
            auto got = keys;
            loom::sort(pol, got.begin(), got.end(), comp);
            // Equal values, so -0.0 and +0.0 (equivalent under the comparator) may
            // trade places; == on the vectors treats them as equal.
            ASSERT_EQ(got, expect) << typeid(T).name() << " n = " << n << " " << name;
        });
    }
}

template <class T>
void expect_radix_sorts_of(std::size_t n) {
    expect_radix_sort_matches_std<T>(n, std::less<>{});
    expect_radix_sort_matches_std<T>(n, std::less<T>{});
    expect_radix_sort_matches_std<T>(n, std::ranges::less{});
    expect_radix_sort_matches_std<T>(n, std::greater<>{});
    expect_radix_sort_matches_std<T>(n, std::greater<T>{});
    expect_radix_sort_matches_std<T>(n, std::ranges::greater{});
}

TEST(Algorithms, RadixSortedKeysOfEveryWidthAndSignMatchStdSort) {
    for (std::size_t n : {0UL, 1UL, 2UL, 63UL, 64UL, 255UL, 256UL, 513UL, 10000UL, 70000UL, 300000UL}) {
        expect_radix_sorts_of<std::int8_t>(n);
        expect_radix_sorts_of<std::uint8_t>(n);
        expect_radix_sorts_of<char>(n);
        expect_radix_sorts_of<std::int16_t>(n);
        expect_radix_sorts_of<std::uint16_t>(n);
        expect_radix_sorts_of<std::int32_t>(n);
        expect_radix_sorts_of<std::uint32_t>(n);
        expect_radix_sorts_of<std::int64_t>(n);
        expect_radix_sorts_of<std::uint64_t>(n);
        expect_radix_sorts_of<float>(n);
        expect_radix_sorts_of<double>(n);
    }
}

TEST(Algorithms, RadixSortServesOnlyComparatorsWhoseOrderTheBitsGive) {
    using u32 = std::vector<std::uint32_t>::iterator;
    // std::less<int> converts unsigned keys to int: 0x80000000 then sorts first.
    static_assert(!loom::detail::radix_sortable<u32, std::less<int>>);
    static_assert(!loom::detail::radix_sortable<u32, bool (*)(std::uint32_t, std::uint32_t)>);
    static_assert(!loom::detail::radix_sortable<std::vector<bool>::iterator, std::less<>>);
    static_assert(loom::detail::radix_sortable<std::vector<double>::iterator, std::greater<double>>);
    std::vector<std::uint32_t> v = {0x80000000u, 1u, 0xFFFFFFFFu, 0u};
    loom::sort(ex::par, v.begin(), v.end(), std::less<int>{});
    EXPECT_EQ(v, (std::vector<std::uint32_t>{0x80000000u, 0xFFFFFFFFu, 0u, 1u}));
    // Stable sorts of equal float keys keep -0.0 and +0.0 in their input order.
    std::vector<double> zeros(5000);
    for (std::size_t i = 0; i < zeros.size(); ++i) zeros[i] = (i % 3 == 0) ? -0.0 : 0.0;
    auto stable = zeros;
    loom::stable_sort(ex::par, stable.begin(), stable.end());
    for (std::size_t i = 0; i < zeros.size(); ++i) ASSERT_EQ(std::signbit(stable[i]), std::signbit(zeros[i])) << i;
}

TEST(Algorithms, StableSortsOfFloatKeysKeepEqualZerosInInputOrder) {
    // -0.0 and +0.0 are equivalent under std::less but distinguishable: a stable sort
    // keeps their input order, bit for bit as std::stable_sort does. Sizes below and
    // above the radix minimum, one range, and the parallel merge sort's leaves.
    auto bits_of = [](const auto& v) {
        std::vector<std::uint64_t> b(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            double d = double(v[i]);
            std::memcpy(&b[i], &d, sizeof d);
        }
        return b;
    };
    auto check = [&](auto zero, std::size_t n, auto comp) {
        using T = decltype(zero);
        auto v = radix_test_keys<T>(n, n + 3);
        std::mt19937 gen(7);
        for (auto& x : v) {
            if (gen() % 3 == 0) x = (gen() & 1) ? T(-0.0) : T(0.0);
        }
        auto expect = v;
        std::stable_sort(expect.begin(), expect.end(), comp);
        for_seq_and_par([&](const auto& pol, const char* name) {
            auto got = v;
            loom::stable_sort(pol, got.begin(), got.end(), comp);
            ASSERT_EQ(bits_of(got), bits_of(expect)) << typeid(T).name() << " n = " << n << " " << name;
        });
    };
    for (std::size_t n : {100UL, 600UL, 5000UL, 100000UL}) {
        check(0.0, n, std::less<>{});
        check(0.0, n, std::greater<double>{});
        check(0.0f, n, std::ranges::less{});
        check(0.0f, n, std::greater<>{});
    }
}

TEST(Algorithms, SortsKeysWithNaNsIntoAPermutation) {
    // NaNs break std::less's strict weak order, so no order is promised; the call must
    // still return and keep every element.
    auto v = radix_test_keys<double>(20000, 9);
    for (std::size_t i = 0; i < v.size(); i += 97) v[i] = std::numeric_limits<double>::quiet_NaN();
    auto got = v;
    loom::sort(ex::par, got.begin(), got.end());
    auto bits = [](const std::vector<double>& x) {
        std::vector<std::uint64_t> b(x.size());
        std::memcpy(b.data(), x.data(), x.size() * sizeof(double));
        std::sort(b.begin(), b.end());
        return b;
    };
    EXPECT_EQ(bits(got), bits(v));
}

TEST(Algorithms, SortAndStableSort) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            for (int hi : {3, 1 << 30}) {  // many duplicates, and few
                auto v = random_ints(n, 0, hi);
                auto expect = v;
                std::sort(expect.begin(), expect.end());
                loom::sort(pol, v.begin(), v.end());
                EXPECT_EQ(v, expect);
                loom::sort(pol, v.begin(), v.end(), std::greater<>{});  // sorted input, reversed
                std::sort(expect.begin(), expect.end(), std::greater<>{});
                EXPECT_EQ(v, expect);
            }
            // Stability: keys with many duplicates, payload = original position.
            const auto keys = random_ints(n, 0, 10);
            std::vector<std::pair<int, std::size_t>> s(n);
            for (std::size_t i = 0; i < n; ++i) s[i] = {keys[i], i};
            auto expect = s;
            auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
            std::stable_sort(expect.begin(), expect.end(), by_key);
            loom::stable_sort(pol, s.begin(), s.end(), by_key);
            EXPECT_EQ(s, expect);
        }
    });
}

TEST(Algorithms, SortsMoveOnlyElements) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            const auto keys = random_ints(n, 0, 1000);
            std::vector<std::unique_ptr<int>> v;
            for (int k : keys) v.push_back(std::make_unique<int>(k));
            auto by_value = [](const std::unique_ptr<int>& a, const std::unique_ptr<int>& b) { return *a < *b; };
            auto sorted = keys;
            std::sort(sorted.begin(), sorted.end());
            auto values = [&v] {
                std::vector<int> r;
                for (auto& p : v) r.push_back(*p);
                return r;
            };
            loom::sort(pol, v.begin(), v.end(), by_value);
            EXPECT_EQ(values(), sorted);
            std::reverse(v.begin(), v.end());
            loom::stable_sort(pol, v.begin(), v.end(), by_value);
            EXPECT_EQ(values(), sorted);
            auto odd = [](const std::unique_ptr<int>& p) { return *p % 2 != 0; };
            auto mid = loom::partition(pol, v.begin(), v.end(), odd);
            EXPECT_TRUE(std::is_partitioned(v.begin(), v.end(), odd));
            EXPECT_EQ(mid - v.begin(), std::count_if(keys.begin(), keys.end(), [](int k) { return k % 2 != 0; }));
            auto smallest = loom::min_element(pol, v.begin(), v.end(), by_value);
            if (n > 0) {
                EXPECT_EQ(**smallest, sorted.front());
            }
            loom::for_each(pol, v.begin(), v.end(), [](std::unique_ptr<int>& p) { p.reset(); });
            EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](auto& p) { return p == nullptr; }));
        }
    });
}

TEST(Algorithms, PartitionKeepsTheElements) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            // Same elements afterwards: compared by a sum of a hash of each value.
            auto fingerprint = [](const std::vector<int>& x) {
                unsigned long h = 0;
                for (int e : x) h += (unsigned long)(e) * 0x9e3779b97f4a7c15ul ^ (unsigned long)(e) >> 3;
                return h;
            };
            for (int modulus : {1, 3, 1000000}) {  // all true, some, none
                auto v = random_ints(n, 0, 1 << 20);
                auto pred = [modulus](int x) { return x % modulus == 0; };
                auto expect_true = std::count_if(v.begin(), v.end(), pred);
                const auto before = fingerprint(v);
                auto mid = loom::partition(pol, v.begin(), v.end(), pred);
                EXPECT_EQ(mid - v.begin(), expect_true);
                EXPECT_TRUE(std::is_partitioned(v.begin(), v.end(), pred));
                EXPECT_EQ(fingerprint(v), before);
            }
        }
    });
}

TEST(Algorithms, MergeIsStable) {
    for_each_policy([](const auto& pol, const char* name) {
        for (std::size_t n : sizes()) {
            TRACE_CASE(name, n);
            auto a = random_ints(n, 0, 100, 3);
            auto b = random_ints(n / 3 + 1, 0, 100, 4);
            std::vector<std::pair<int, int>> pa, pb;  // (key, source): ties must keep a first
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            for (int x : a) pa.emplace_back(x, 0);
            for (int x : b) pb.emplace_back(x, 1);
            auto by_key = [](const auto& x, const auto& y) { return x.first < y.first; };
            std::vector<std::pair<int, int>> expect(pa.size() + pb.size()), got(expect.size());
            std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), expect.begin(), by_key);
            EXPECT_EQ(loom::merge(pol, pa.begin(), pa.end(), pb.begin(), pb.end(), got.begin(), by_key), got.end());
            EXPECT_EQ(got, expect);
            std::vector<int> merged(a.size() + b.size());
            loom::merge(pol, a.begin(), a.end(), b.begin(), b.end(), merged.begin());
            EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end()));
        }
    });
}

TEST(Algorithms, WithoutPolicyTheStandardRuns) {
    auto v = random_ints(1000, 0, 100);
    auto expect = v;
    std::sort(expect.begin(), expect.end());
    loom::sort(v.begin(), v.end());
    EXPECT_EQ(v, expect);
    EXPECT_EQ(loom::count(v.begin(), v.end(), 5), std::count(v.begin(), v.end(), 5));
    EXPECT_EQ(loom::find(v.begin(), v.end(), 50), std::find(v.begin(), v.end(), 50));
}

TEST(Algorithms, ForwardIteratorsRunSequentially) {
    std::vector<int> src = random_ints(1000, 0, 100);
    std::list<int> l(src.begin(), src.end());
    std::atomic<long> sum{0};
    loom::for_each(ex::par, l.begin(), l.end(), [&](int x) { sum += x; });
    EXPECT_EQ(sum.load(), std::accumulate(src.begin(), src.end(), 0L));
    EXPECT_EQ(loom::count(ex::par, l.begin(), l.end(), 5), std::count(src.begin(), src.end(), 5));
}

}  // namespace
