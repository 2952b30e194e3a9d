// A minimal PNG encoder for 8-bit RGB images, with no compression library: the
// image data goes into the zlib stream as stored (uncompressed) deflate blocks. A
// file is the signature and three chunks (IHDR, IDAT, IEND), each
// [length][type][data][CRC-32 of type and data]; the IDAT data is
//   zlib header 0x78 0x01 | stored blocks of at most 65535 bytes, each
//   [BFINAL bit, BTYPE 00][LEN][~LEN][bytes] | Adler-32 of the uncompressed bytes,
// and the uncompressed bytes are the scanlines, each a filter byte (0: none) and the
// row's RGB triples (PNG specification, RFC 1950, RFC 1951).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checksums.hpp"

namespace png {

struct rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const rgb&, const rgb&) = default;
};

inline constexpr std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
inline constexpr std::size_t max_stored_block = 65535;

namespace detail {

inline void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {  // big-endian, as PNG and zlib
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

inline void put_chunk(std::vector<std::uint8_t>& out, const char (&type)[5], const std::vector<std::uint8_t>& data) {
    put32(out, static_cast<std::uint32_t>(data.size()));
    const std::size_t typed = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put32(out, crc32(out.data() + typed, out.size() - typed));
}

// The rows as PNG scanlines: filter type 0, then the pixels.
inline std::vector<std::uint8_t> scanlines(const std::vector<rgb>& pixels, std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> raw;
    raw.reserve(static_cast<std::size_t>(height) * (1 + 3 * static_cast<std::size_t>(width)));
    for (std::uint32_t y = 0; y < height; ++y) {
        raw.push_back(0);
        for (std::uint32_t x = 0; x < width; ++x) {
            const rgb& p = pixels[static_cast<std::size_t>(y) * width + x];
            raw.insert(raw.end(), {p.r, p.g, p.b});
        }
    }
    return raw;
}

}  // namespace detail

/// `raw` as a zlib stream of stored deflate blocks.
inline std::vector<std::uint8_t> zlib_stored(const std::vector<std::uint8_t>& raw) {
    std::vector<std::uint8_t> z = {0x78, 0x01};  // deflate, 32 KiB window; 0x7801 % 31 == 0
    std::size_t at = 0;
    do {
        const std::size_t len = raw.size() - at < max_stored_block ? raw.size() - at : max_stored_block;
        const bool last = at + len == raw.size();
        z.push_back(last ? 1 : 0);  // BFINAL, BTYPE = 00 (stored); the rest of the byte is padding
        const auto n = static_cast<std::uint16_t>(len);
        const auto not_n = static_cast<std::uint16_t>(~n);
        z.insert(z.end(), {static_cast<std::uint8_t>(n & 0xFF), static_cast<std::uint8_t>(n >> 8),
                           static_cast<std::uint8_t>(not_n & 0xFF), static_cast<std::uint8_t>(not_n >> 8)});
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
                 raw.begin() + static_cast<std::ptrdiff_t>(at + len));
        at += len;
    } while (at < raw.size());
    detail::put32(z, adler32(raw.data(), raw.size()));
    return z;
}

/// The PNG file of a width x height image (pixels row by row, top row first).
inline std::vector<std::uint8_t> encode(const std::vector<rgb>& pixels, std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> file(signature, signature + 8);
    std::vector<std::uint8_t> ihdr;
    detail::put32(ihdr, width);
    detail::put32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8 bits per sample, RGB, deflate, filter 0, no interlace
    detail::put_chunk(file, "IHDR", ihdr);
    detail::put_chunk(file, "IDAT", zlib_stored(detail::scanlines(pixels, width, height)));
    detail::put_chunk(file, "IEND", {});
    return file;
}

/// The size encode() gives: signature, three chunks of 12 bytes plus data; the zlib
/// stream holds a 2-byte header, 5 bytes per stored block and a 4-byte checksum.
inline std::size_t encoded_size(std::uint32_t width, std::uint32_t height) {
    const std::size_t raw = static_cast<std::size_t>(height) * (1 + 3 * static_cast<std::size_t>(width));
    const std::size_t blocks = raw == 0 ? 1 : (raw + max_stored_block - 1) / max_stored_block;
    return 8 + (12 + 13) + (12 + 2 + 5 * blocks + raw + 4) + 12;
}

}  // namespace png
