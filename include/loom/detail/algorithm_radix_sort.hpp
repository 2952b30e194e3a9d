// The sequential sort of arithmetic keys under loom::sort and loom::stable_sort: an
// LSD radix sort, one byte per pass. It applies only where the comparator is one
// whose order a key's bits give without calling it: std::less / std::greater /
// std::ranges::less / std::ranges::greater of the element type itself (a
// std::less<int> over unsigned keys converts and so orders differently: not
// recognised). A comparison sort of random keys mispredicts about one branch in two;
// a radix pass only counts and scatters, so 1e4 uint32 keys take four scatter passes
// and one counting pass instead of ~13 levels of partitioning.
//
// Order-preserving keys: an unsigned integer is its own key; a signed one has its sign
// bit flipped (two's complement then orders as unsigned); an IEEE float with the sign
// bit clear gets it set, one with it set has every bit flipped (so more negative
// values, larger magnitudes, come first). NaNs go to the ends, which std::less
// permits (they break its strict weak order, so any result is allowed for them).
// Descending order sorts the complemented key.
//
// -0.0 and +0.0 are equivalent under std::less yet distinguishable, so -0.0 gets
// +0.0's key: LSD radix is stable, and equal keys then keep their input order, which
// stable_sort needs.
#pragma once

#include <bit>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>

namespace loom::detail {

template <std::size_t Bytes>
using radix_unsigned_of = std::conditional_t<
    Bytes == 1, std::uint8_t,
    std::conditional_t<Bytes == 2, std::uint16_t, std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

template <class V>
inline constexpr bool radix_integer = std::is_integral_v<V> && !std::is_same_v<V, bool> && sizeof(V) <= 8;

template <class V>
inline constexpr bool radix_float = std::is_floating_point_v<V> && std::numeric_limits<V>::is_iec559 &&
                                    (sizeof(V) == 4 || sizeof(V) == 8);

/// +1 when Comp orders V ascending by value, -1 descending, 0 when it is not a
/// comparator whose order the bits give.
template <class V, class Comp>
inline constexpr int radix_direction =
    (std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<V>> ||
     std::is_same_v<Comp, std::ranges::less>)
        ? 1
        : (std::is_same_v<Comp, std::greater<>> || std::is_same_v<Comp, std::greater<V>> ||
           std::is_same_v<Comp, std::ranges::greater>)
              ? -1
              : 0;

/// Whether the radix sort serves (It, Comp).
template <class It, class Comp>
inline constexpr bool radix_sortable = [] {
    if constexpr (!std::random_access_iterator<It> || !std::is_lvalue_reference_v<std::iter_reference_t<It>>) {
        return false;
    } else {
        using V = std::remove_cv_t<std::iter_value_t<It>>;
        if (!std::is_same_v<std::remove_cvref_t<std::iter_reference_t<It>>, V>) return false;
        return (radix_integer<V> || radix_float<V>) && radix_direction<V, std::remove_cv_t<Comp>> != 0;
    }
}();

/// The unsigned key whose ascending order is `Direction`'s order of the values.
template <int Direction, class V>
constexpr radix_unsigned_of<sizeof(V)> radix_key(V v) noexcept {
    using U = radix_unsigned_of<sizeof(V)>;
    constexpr U sign = U(U(1) << (sizeof(U) * CHAR_BIT - 1));
    U u;
    if constexpr (std::is_integral_v<V>) {
        u = static_cast<U>(v);
        if constexpr (std::is_signed_v<V>) u = U(u ^ sign);
    } else {
        u = std::bit_cast<U>(v);
        if (u == sign) u = 0;  // -0.0: +0.0's key
        u = (u & sign) ? U(~u) : U(u | sign);
    }
    if constexpr (Direction < 0) u = U(~u);
    return u;
}

/// Radix-sorted ranges are at least this long; below, insertion and block sorting
/// cost less than one count-and-scatter pass per key byte over 256 buckets.
template <class V>
inline constexpr std::size_t radix_min_elements = 64 * sizeof(V);

/// Ranges longer than this are first partitioned: the range and the scratch buffer
/// then stay within a core's cache (256 KiB each) and the buffer stays small.
template <class V>
inline constexpr std::size_t radix_max_elements = (std::size_t(256) << 10) / sizeof(V);

/// Sorts [first, first + n) through `scratch` (room for n elements). n must be below
/// 2^32 (the counters are 32-bit; radix_max_elements keeps it far below).
template <int Direction, class It, class V>
void radix_sort(It first, std::size_t n, V* scratch) noexcept {
    constexpr int passes = int(sizeof(V));
    std::uint32_t count[passes][256] = {};
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = radix_key<Direction>(V(first[std::ptrdiff_t(i)]));
        for (int p = 0; p < passes; ++p) ++count[p][(k >> (8 * p)) & 0xFF];
    }
    bool in_scratch = false;  // where the keys sorted so far live
    auto pass = [&](auto src, auto dst, int p) {
        std::uint32_t offset[256];
        std::uint32_t sum = 0;
        for (int b = 0; b < 256; ++b) {
            offset[b] = sum;
            sum += count[p][b];
        }
        for (std::size_t i = 0; i < n; ++i) {
            const V v = src[std::ptrdiff_t(i)];
            dst[std::ptrdiff_t(offset[(radix_key<Direction>(v) >> (8 * p)) & 0xFF]++)] = v;
        }
    };
    for (int p = 0; p < passes; ++p) {
        // A byte that every key shares moves nothing: skip its pass.
        const auto any = radix_key<Direction>(V(in_scratch ? scratch[0] : first[0]));
        if (count[p][(any >> (8 * p)) & 0xFF] == n) continue;
        if (in_scratch) {
            pass(scratch, first, p);
        } else {
            pass(first, scratch, p);
        }
        in_scratch = !in_scratch;
    }
    if (in_scratch) {
        for (std::size_t i = 0; i < n; ++i) first[std::ptrdiff_t(i)] = scratch[i];
    }
}

/// Scratch room for radix-sorting ranges of up to `n` elements, or none (size 0) when
/// the allocation fails: the caller then sorts by comparison, so running out of
/// memory costs speed, not the call.
template <class V>
struct radix_scratch {
    std::unique_ptr<V[]> room;
    std::size_t size = 0;

    explicit radix_scratch(std::size_t n) : room(new (std::nothrow) V[n]), size(room ? n : 0) {}
};

}  // namespace loom::detail
