// The PNG encoder of the Mandelbrot example: the checksums against their published
// check values, and files decoded back (chunks, CRCs, zlib stored blocks, Adler-32,
// scanlines) to the pixels that went in, across the 65535-byte block boundary.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "png.hpp"

namespace {

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
    return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

const std::uint8_t* bytes(const char* s) { return reinterpret_cast<const std::uint8_t*>(s); }

struct decoded {
    std::uint32_t width = 0, height = 0;
    std::vector<png::rgb> pixels;
    std::size_t blocks = 0;
};

// Inflates a zlib stream made only of stored blocks; fails the test on anything else.
std::vector<std::uint8_t> inflate_stored(const std::vector<std::uint8_t>& z, std::size_t& blocks) {
    std::vector<std::uint8_t> raw;
    EXPECT_GE(z.size(), 2u + 5u + 4u);
    EXPECT_EQ(z[0] & 0x0F, 8) << "CM must be deflate";
    EXPECT_EQ((z[0] * 256 + z[1]) % 31, 0) << "FCHECK";
    std::size_t at = 2;
    bool last = false;
    while (!last && at + 5 <= z.size()) {
        last = (z[at] & 1) != 0;
        EXPECT_EQ((z[at] >> 1) & 3, 0) << "BTYPE must be stored";
        const unsigned len = z[at + 1] | (z[at + 2] << 8), nlen = z[at + 3] | (z[at + 4] << 8);
        EXPECT_EQ(len ^ 0xFFFFu, nlen);
        at += 5;
        raw.insert(raw.end(), z.begin() + static_cast<std::ptrdiff_t>(at), z.begin() + static_cast<std::ptrdiff_t>(at + len));
        at += len;
        ++blocks;
    }
    EXPECT_TRUE(last);
    EXPECT_EQ(at + 4, z.size());
    EXPECT_EQ(be32(z, at), png::adler32(raw.data(), raw.size()));
    return raw;
}

decoded decode(const std::vector<std::uint8_t>& file) {
    decoded d;
    EXPECT_EQ(std::memcmp(file.data(), png::signature, 8), 0);
    std::vector<std::uint8_t> idat;
    std::vector<std::string> order;
    for (std::size_t at = 8; at + 12 <= file.size();) {
        const std::uint32_t len = be32(file, at);
        const std::string type(file.begin() + static_cast<std::ptrdiff_t>(at + 4), file.begin() + static_cast<std::ptrdiff_t>(at + 8));
        EXPECT_EQ(be32(file, at + 8 + len), png::crc32(file.data() + at + 4, 4 + len)) << type;
        const auto data = file.begin() + static_cast<std::ptrdiff_t>(at + 8);
        if (type == "IHDR") {
            d.width = be32(file, at + 8);
            d.height = be32(file, at + 12);
            EXPECT_EQ(std::vector<std::uint8_t>(data + 8, data + 13), (std::vector<std::uint8_t>{8, 2, 0, 0, 0}));
        }
        if (type == "IDAT") idat.insert(idat.end(), data, data + len);
        order.push_back(type);
        at += 12 + len;
    }
    EXPECT_EQ(order, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
    const std::vector<std::uint8_t> raw = inflate_stored(idat, d.blocks);
    const std::size_t stride = 1 + 3 * std::size_t{d.width};
    EXPECT_EQ(raw.size(), stride * d.height);
    for (std::size_t y = 0; y < d.height && (y + 1) * stride <= raw.size(); ++y) {
        EXPECT_EQ(raw[y * stride], 0) << "filter type of row " << y;
        for (std::size_t x = 0; x < d.width; ++x) {
            const std::uint8_t* p = &raw[y * stride + 1 + 3 * x];
            d.pixels.push_back({p[0], p[1], p[2]});
        }
    }
    return d;
}

std::vector<png::rgb> test_image(std::uint32_t w, std::uint32_t h) {
    std::vector<png::rgb> px;
    for (std::uint32_t i = 0; i < w * h; ++i)
        px.push_back({static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8), static_cast<std::uint8_t>(i * 7)});
    return px;
}

TEST(Png, ChecksumsMatchTheirCheckValues) {
    EXPECT_EQ(png::crc32(bytes("123456789"), 9), 0xCBF43926u);
    EXPECT_EQ(png::crc32(bytes("IEND"), 4), 0xAE426082u);  // every PNG ends with it
    EXPECT_EQ(png::adler32(bytes("Wikipedia"), 9), 0x11E60398u);
    EXPECT_EQ(png::adler32(nullptr, 0), 1u);
    // In pieces as in one go, and past the 5552-byte reduction step.
    std::vector<std::uint8_t> big(100000, 0xFF);
    const std::uint32_t whole = png::adler32(big.data(), big.size());
    EXPECT_EQ(png::adler32(big.data() + 777, big.size() - 777, png::adler32(big.data(), 777)), whole);
    EXPECT_EQ(png::crc32(big.data() + 5, big.size() - 5, png::crc32(big.data(), 5)), png::crc32(big.data(), big.size()));
}

TEST(Png, RoundTripsSmallAndMultiBlockImages) {
    // 1x1; a row exactly filling one block (1 + 3 * 21845 = 65536: two blocks); many blocks.
    for (auto [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {21845, 1}, {300, 200}, {7, 3}}) {
        const auto pixels = test_image(w, h);
        const std::vector<std::uint8_t> file = png::encode(pixels, w, h);
        EXPECT_EQ(file.size(), png::encoded_size(w, h)) << w << "x" << h;
        const decoded d = decode(file);
        EXPECT_EQ(d.width, w);
        EXPECT_EQ(d.height, h);
        EXPECT_EQ(d.blocks, (h * (1 + 3 * std::size_t{w}) + 65534) / 65535) << w << "x" << h;
        EXPECT_TRUE(d.pixels == pixels) << w << "x" << h;
    }
}

}  // namespace
