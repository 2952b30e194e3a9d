// Frames for stack_overflow_main.cpp, in their own translation unit because each is
// built with a different -fstack-clash-protection setting (CMakeLists.txt):
//   this file, with LOOM_PROBED_FRAME undefined: -fno-stack-clash-protection, a 48 KiB
//     frame allocated with one `sub` of the stack pointer, its first write 48 KiB below
//     (it steps over a 4 KiB guard page, not over loom's guard of at least 64 KiB);
//   compiled again with LOOM_PROBED_FRAME: -fstack-clash-protection, a 200 KiB frame
//     (larger than any guard) whose allocation touches every page on the way down.
// Each writes the lowest 16 KiB of its array (the end farthest from the caller) and
// returns a byte of it, so the compiler keeps the array.
#include <cstddef>

#if defined(LOOM_PROBED_FRAME)
#define LOOM_FRAME_FN probed_frame
constexpr std::size_t frame_bytes = 200 * 1024;
#else
#define LOOM_FRAME_FN unprobed_frame
constexpr std::size_t frame_bytes = 48 * 1024;
#endif

__attribute__((noinline)) int LOOM_FRAME_FN(int fill) {
    volatile unsigned char buf[frame_bytes];
    for (std::size_t i = 0; i < 16 * 1024; ++i) buf[i] = static_cast<unsigned char>(fill);
    return buf[fill & 1023];
}
