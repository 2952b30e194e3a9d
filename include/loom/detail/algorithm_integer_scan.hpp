// The sequential kernel of a scan that sums 4- or 8-byte integers (std::plus, no
// transformation, input and output contiguous arrays of the summed type): prefix sums
// of offsets and counts, the commonest scan there is.
//
// Why a kernel of its own: an element-by-element scan adds each element to the sum of
// the one before, so it runs at the latency of one add per element (1e4 int64: 2.7-3.4
// us here, depending on where the loop lands in memory), whatever the core could do
// in parallel. A vector first sums within itself (a shift and an add per doubling of
// the summed span), the running total is added to it, and the total moves on by the
// vector's last lane: one add per vector on the carry chain instead of one per
// element; neither gcc 12 nor clang 19 vectorises the plain loop.
//
// Two widths. The 16-byte kernel (SSE2, every x86-64) is bound by its shuffles, one per
// doubling on the one shuffle port: 1e4 int64 in 3.3-3.5 us here, no faster than the
// plain loop once the arrays leave L1. The 64-byte kernel (AVX-512F, chosen at run time
// where the processor and the operating system have it) sums eight int64 or sixteen
// int32 with three or four shuffles: 1e4 int64 in 2.3-2.5 us, 1e5 in 26 against 36-41
// us. It is compiled for AVX-512 through a function attribute, so callers need no
// compiler flag; 64-byte integer adds and lane shifts do not lower the clock of the
// processors that have them (those are the floating-point and multiply units).
//
// Integer addition modulo 2^N is associative, so the result is bit for bit the
// element-by-element one; the arithmetic is unsigned, so a signed sum that overflows
// wraps instead of being undefined. Without SSE2 (not x86-64), the plain loop runs.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>

#include "loom/detail/algorithm_dispatch.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LOOM_SCAN_AVX512 1
#else
#define LOOM_SCAN_AVX512 0
#endif

namespace loom::detail {

/// Whether a scan of In into Out from a T by Op through Un is an integer sum that the
/// vector kernel computes bit for bit.
template <class In, class Out, class T, class Op, class Un>
inline constexpr bool integer_sum_scan =
#if defined(__SSE2__)
    std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8) &&
    std::contiguous_iterator<In> && std::contiguous_iterator<Out> &&
    std::is_same_v<std::iter_value_t<In>, T> && std::is_same_v<std::iter_value_t<Out>, T> &&
    std::is_same_v<std::iter_reference_t<Out>, T&> && std::is_same_v<std::remove_cv_t<Un>, identity_fn> &&
    (std::is_same_v<std::remove_cv_t<Op>, std::plus<>> || std::is_same_v<std::remove_cv_t<Op>, std::plus<T>>);
#else
    false;
#endif

#if defined(__SSE2__)

/// Lane arithmetic of a 16-byte vector of Bytes-wide integers.
template <std::size_t Bytes>
struct sum_lanes;

template <>
struct sum_lanes<8> {
    static __m128i add(__m128i a, __m128i b) noexcept { return _mm_add_epi64(a, b); }
    static __m128i sub(__m128i a, __m128i b) noexcept { return _mm_sub_epi64(a, b); }
    static __m128i broadcast(std::uint64_t x) noexcept { return _mm_set1_epi64x(std::int64_t(x)); }
    static __m128i prefix(__m128i v) noexcept { return add(v, _mm_slli_si128(v, 8)); }
    static __m128i last_everywhere(__m128i v) noexcept { return _mm_shuffle_epi32(v, 0xEE); }  // lanes 1,1
    static std::uint64_t first(__m128i v) noexcept { return std::uint64_t(_mm_cvtsi128_si64(v)); }
};

template <>
struct sum_lanes<4> {
    static __m128i add(__m128i a, __m128i b) noexcept { return _mm_add_epi32(a, b); }
    static __m128i sub(__m128i a, __m128i b) noexcept { return _mm_sub_epi32(a, b); }
    static __m128i broadcast(std::uint32_t x) noexcept { return _mm_set1_epi32(int(x)); }
    static __m128i prefix(__m128i v) noexcept {
        v = add(v, _mm_slli_si128(v, 4));
        return add(v, _mm_slli_si128(v, 8));
    }
    static __m128i last_everywhere(__m128i v) noexcept { return _mm_shuffle_epi32(v, 0xFF); }  // lanes 3,3,3,3
    static std::uint32_t first(__m128i v) noexcept { return std::uint32_t(_mm_cvtsi128_si32(v)); }
};

/// The elements after the last whole round of a kernel, one at a time.
template <bool Inclusive, class T>
T integer_sum_scan_tail(const T* in, T* out, std::size_t i, std::size_t n, T sum) noexcept {
    using U = std::make_unsigned_t<T>;
    U s = U(sum);
    for (; i < n; ++i) {
        const U x = U(in[i]);
        if constexpr (!Inclusive) out[i] = T(s);
        s = U(s + x);
        if constexpr (Inclusive) out[i] = T(s);
    }
    return T(s);
}

/// Scans n elements of in into out from `sum` with 16-byte vectors (exclusive: out[i]
/// gets the sum before element i); returns the sum of everything. out may be in: each
/// round loads its elements before it stores them.
template <bool Inclusive, class T>
T integer_sum_scan_sse2(const T* in, T* out, std::size_t n, T sum) noexcept {
    using U = std::make_unsigned_t<T>;
    using lanes = sum_lanes<sizeof(T)>;
    constexpr std::size_t per_vector = 16 / sizeof(T);
    constexpr std::size_t per_round = 2 * per_vector;
    __m128i carry = lanes::broadcast(U(sum));
    std::size_t i = 0;
    for (const std::size_t whole = n - n % per_round; i < whole; i += per_round) {
        const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + per_vector));
        const __m128i p0 = lanes::prefix(x0);
        const __m128i p1 = lanes::add(lanes::prefix(x1), lanes::last_everywhere(p0));
        const __m128i y0 = Inclusive ? p0 : lanes::sub(p0, x0);
        const __m128i y1 = Inclusive ? p1 : lanes::sub(p1, x1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), lanes::add(y0, carry));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + per_vector), lanes::add(y1, carry));
        carry = lanes::add(carry, lanes::last_everywhere(p1));
    }
    return integer_sum_scan_tail<Inclusive>(in, out, i, n, T(lanes::first(carry)));
}

#endif

#if LOOM_SCAN_AVX512

/// Lane arithmetic of a 64-byte vector of Bytes-wide integers. `shifted<k>` moves the
/// lanes k places up and fills with zeros (valign with a zero vector). The zero-masked
/// forms of the shuffles, with every lane selected, are the plain instructions; the
/// unmasked intrinsics of gcc 12 start from an "undefined" vector that -Wall reports
/// as maybe uninitialised (fixed in gcc 13).
template <std::size_t Bytes>
struct wide_sum_lanes;

template <>
struct wide_sum_lanes<8> {
    static constexpr int count = 8;
    static constexpr __mmask8 all = 0xFF;
    [[gnu::target("avx512f")]] static __m512i add(__m512i a, __m512i b) noexcept { return _mm512_add_epi64(a, b); }
    [[gnu::target("avx512f")]] static __m512i sub(__m512i a, __m512i b) noexcept { return _mm512_sub_epi64(a, b); }
    [[gnu::target("avx512f")]] static __m512i broadcast(std::uint64_t x) noexcept {
        return _mm512_set1_epi64(std::int64_t(x));
    }
    template <int K>
    [[gnu::target("avx512f")]] static __m512i shifted(__m512i v) noexcept {
        return _mm512_maskz_alignr_epi64(all, v, _mm512_setzero_si512(), count - K);
    }
    [[gnu::target("avx512f")]] static __m512i prefix(__m512i v) noexcept {
        v = add(v, shifted<1>(v));
        v = add(v, shifted<2>(v));
        return add(v, shifted<4>(v));
    }
    [[gnu::target("avx512f")]] static __m512i last_everywhere(__m512i v) noexcept {
        return _mm512_maskz_permutexvar_epi64(all, _mm512_set1_epi64(count - 1), v);
    }
    [[gnu::target("avx512f")]] static std::uint64_t first(__m512i v) noexcept {
        alignas(64) std::uint64_t lane[count];
        _mm512_store_si512(lane, v);
        return lane[0];
    }
};

template <>
struct wide_sum_lanes<4> {
    static constexpr int count = 16;
    static constexpr __mmask16 all = 0xFFFF;
    [[gnu::target("avx512f")]] static __m512i add(__m512i a, __m512i b) noexcept { return _mm512_add_epi32(a, b); }
    [[gnu::target("avx512f")]] static __m512i sub(__m512i a, __m512i b) noexcept { return _mm512_sub_epi32(a, b); }
    [[gnu::target("avx512f")]] static __m512i broadcast(std::uint32_t x) noexcept {
        return _mm512_set1_epi32(int(x));
    }
    template <int K>
    [[gnu::target("avx512f")]] static __m512i shifted(__m512i v) noexcept {
        return _mm512_maskz_alignr_epi32(all, v, _mm512_setzero_si512(), count - K);
    }
    [[gnu::target("avx512f")]] static __m512i prefix(__m512i v) noexcept {
        v = add(v, shifted<1>(v));
        v = add(v, shifted<2>(v));
        v = add(v, shifted<4>(v));
        return add(v, shifted<8>(v));
    }
    [[gnu::target("avx512f")]] static __m512i last_everywhere(__m512i v) noexcept {
        return _mm512_maskz_permutexvar_epi32(all, _mm512_set1_epi32(count - 1), v);
    }
    [[gnu::target("avx512f")]] static std::uint32_t first(__m512i v) noexcept {
        alignas(64) std::uint32_t lane[count];
        _mm512_store_si512(lane, v);
        return lane[0];
    }
};

/// As integer_sum_scan_sse2 with 64-byte vectors; call only where
/// cpu_has_avx512f(). Two vectors per round: the second adds the first's last lane,
/// and the running total enters only through one add per round, off the shuffles.
template <bool Inclusive, class T>
[[gnu::target("avx512f")]] T integer_sum_scan_avx512(const T* in, T* out, std::size_t n, T sum) noexcept {
    using U = std::make_unsigned_t<T>;
    using lanes = wide_sum_lanes<sizeof(T)>;
    constexpr std::size_t per_round = 2 * lanes::count;
    __m512i carry = lanes::broadcast(U(sum));
    std::size_t i = 0;
    for (const std::size_t whole = n - n % per_round; i < whole; i += per_round) {
        const __m512i x0 = _mm512_loadu_si512(in + i);
        const __m512i x1 = _mm512_loadu_si512(in + i + lanes::count);
        const __m512i p0 = lanes::prefix(x0);
        const __m512i p1 = lanes::add(lanes::prefix(x1), lanes::last_everywhere(p0));
        const __m512i y0 = Inclusive ? p0 : lanes::sub(p0, x0);
        const __m512i y1 = Inclusive ? p1 : lanes::sub(p1, x1);
        _mm512_storeu_si512(out + i, lanes::add(y0, carry));
        _mm512_storeu_si512(out + i + lanes::count, lanes::add(y1, carry));
        carry = lanes::add(carry, lanes::last_everywhere(p1));
    }
    return integer_sum_scan_tail<Inclusive>(in, out, i, n, T(lanes::first(carry)));
}

/// Whether this processor runs AVX-512F code and the operating system saves its
/// registers (the compiler's CPU test checks both); asked once per process.
inline bool cpu_has_avx512f() noexcept {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") != 0;
    }();
    return has;
}

#endif

#if defined(__SSE2__)

/// Below this many elements the 16-byte kernel serves: the wide one's first round
/// needs 16 or 32.
inline constexpr std::size_t wide_scan_min = 64;

/// The kernel for this processor: scans n elements of in into out from `sum`.
template <bool Inclusive, class T>
T integer_sum_scan_from(const T* in, T* out, std::size_t n, T sum) noexcept {
#if LOOM_SCAN_AVX512
    if (n >= wide_scan_min && cpu_has_avx512f()) return integer_sum_scan_avx512<Inclusive>(in, out, n, sum);
#endif
    return integer_sum_scan_sse2<Inclusive>(in, out, n, sum);
}

#endif

}  // namespace loom::detail
