// The Mandelbrot set with loom::for_each: every pixel of the image is computed on its
// own, in parallel, and the image is written as a PNG file (png.hpp). Rows near the
// set cost far more than rows away from it, so the pixels are handed out in chunks
// of one row, claimed by the workers as they become free (dynamic_chunk_size).
// The program checks its own result: the parallel image must be the serial one
// (CRC-32 of both pixel buffers), and the file must start with the PNG signature
// and have the size the encoder promises.
//
//     example_mandelbrot [--width=800] [--height=600] [--iterations=256]
//                        [--out=mandelbrot.png] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "png.hpp"

namespace {

struct view {
    std::uint32_t width = 800, height = 600;
    int iterations = 256;
    std::string out = "mandelbrot.png";
};

view parse(int argc, char** argv) {
    view v;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto number = [&](std::size_t skip) { return std::strtol(a.c_str() + skip, nullptr, 10); };
        if (a.rfind("--width=", 0) == 0) v.width = static_cast<std::uint32_t>(std::clamp(number(8), 1L, 16384L));
        else if (a.rfind("--height=", 0) == 0) v.height = static_cast<std::uint32_t>(std::clamp(number(9), 1L, 16384L));
        else if (a.rfind("--iterations=", 0) == 0) v.iterations = static_cast<int>(std::clamp(number(13), 1L, 100000L));
        else if (a.rfind("--out=", 0) == 0) v.out = a.substr(6);
        else {
            std::fprintf(stderr, "usage: %s [--width=W] [--height=H] [--iterations=N] [--out=FILE] [--loom:threads=N]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    return v;
}

// Iterations of z = z^2 + c before |z| > 2, or `limit` if it stays bounded.
int escape_time(double cr, double ci, int limit) {
    double zr = 0.0, zi = 0.0;
    int n = 0;
    while (n < limit && zr * zr + zi * zi <= 4.0) {
        const double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        ++n;
    }
    return n;
}

png::rgb colour(int n, int limit) {
    if (n == limit) return {0, 0, 0};  // inside the set
    const double t = static_cast<double>(n) / limit;
    const auto channel = [](double c) { return static_cast<std::uint8_t>(std::clamp(c, 0.0, 1.0) * 255.0); };
    return {channel(9 * (1 - t) * t * t * t), channel(15 * (1 - t) * (1 - t) * t * t),
            channel(8.5 * (1 - t) * (1 - t) * (1 - t) * t)};
}

// Pixel `index` (row by row) of the region [-2.5, 1] x [-1.3125, 1.3125], scaled to fit.
png::rgb pixel(std::size_t index, const view& v) {
    const double x = static_cast<double>(index % v.width), y = static_cast<double>(index / v.width);
    const double scale = std::max(3.5 / v.width, 2.625 / v.height);
    const double cr = -0.75 + (x - v.width / 2.0) * scale;
    const double ci = (y - v.height / 2.0) * scale;
    return colour(escape_time(cr, ci, v.iterations), v.iterations);
}

std::uint32_t checksum(const std::vector<png::rgb>& image) {
    static_assert(sizeof(png::rgb) == 3, "the pixel buffer is checksummed as bytes");
    return png::crc32(reinterpret_cast<const std::uint8_t*>(image.data()), image.size() * sizeof(png::rgb));
}

// The file must be a PNG (signature), of the expected size, naming the image's size.
bool file_is_png(const std::string& path, const view& v) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() != png::encoded_size(v.width, v.height)) return false;
    if (std::memcmp(bytes.data(), png::signature, 8) != 0) return false;
    const auto be32 = [&](std::size_t at) {
        std::uint32_t x = 0;
        for (std::size_t i = 0; i < 4; ++i) x = (x << 8) | static_cast<std::uint8_t>(bytes[at + i]);
        return x;
    };
    return std::memcmp(bytes.data() + 12, "IHDR", 4) == 0 && be32(16) == v.width && be32(20) == v.height;
}

}  // namespace

int loom_main(int argc, char** argv) {
    const view v = parse(argc, argv);
    std::vector<png::rgb> image(static_cast<std::size_t>(v.width) * v.height);
    namespace ex = loom::execution;

    // for_each hands each element to the function; its index follows from its address.
    loom::for_each(ex::par.with(ex::dynamic_chunk_size(v.width)), image.begin(), image.end(),
                   [&](png::rgb& p) { p = pixel(static_cast<std::size_t>(&p - image.data()), v); });

    std::vector<png::rgb> serial(image.size());
    for (std::size_t i = 0; i < serial.size(); ++i) serial[i] = pixel(i, v);
    const std::uint32_t got = checksum(image), expected = checksum(serial);

    const std::vector<std::uint8_t> file = png::encode(image, v.width, v.height);
    std::ofstream(v.out, std::ios::binary).write(reinterpret_cast<const char*>(file.data()),
                                                   static_cast<std::streamsize>(file.size()));
    const bool png_ok = file_is_png(v.out, v);
    const bool ok = got == expected && png_ok;
    std::printf("mandelbrot: %ux%u pixels, %d iterations at most, on %zu workers; pixel CRC-32 %08x, serial %08x; "
                "wrote %s (%zu bytes, PNG signature and size %s): %s\n",
                v.width, v.height, v.iterations, loom::get_os_thread_count(), static_cast<unsigned>(got),
                static_cast<unsigned>(expected), v.out.c_str(), file.size(), png_ok ? "ok" : "WRONG",
                ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
