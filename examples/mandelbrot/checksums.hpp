// The two checksums a PNG file needs: CRC-32 (ISO 3309, reflected polynomial
// 0xEDB88320), which ends every chunk, and Adler-32 (RFC 1950), which ends the zlib
// stream inside the IDAT chunks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace png {

namespace detail {
constexpr std::array<std::uint32_t, 256> crc_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
    return t;
}
inline constexpr std::array<std::uint32_t, 256> crc_lookup = crc_table();
}  // namespace detail

/// Continues a CRC-32 over `size` more bytes; start with crc = 0.
inline std::uint32_t crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc = 0) {
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i) crc = detail::crc_lookup[(crc ^ data[i]) & 0xFFU] ^ (crc >> 8);
    return ~crc;
}

/// Continues an Adler-32 over `size` more bytes; start with adler = 1.
inline std::uint32_t adler32(const std::uint8_t* data, std::size_t size, std::uint32_t adler = 1) {
    constexpr std::uint32_t mod = 65521;
    std::uint32_t a = adler & 0xFFFFU, b = adler >> 16;
    // 5552 bytes is the most that can be added before b may overflow 32 bits.
    while (size > 0) {
        const std::size_t n = size < 5552 ? size : 5552;
        for (std::size_t i = 0; i < n; ++i) {
            a += data[i];
            b += a;
        }
        a %= mod;
        b %= mod;
        data += n;
        size -= n;
    }
    return (b << 16) | a;
}

}  // namespace png
