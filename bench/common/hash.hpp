// A fixed, portable source of pseudo-random inputs: the same on every run, compiler
// and C++ library (std::uniform_*_distribution differ between libraries).
#pragma once

#include <cstdint>

namespace loom_bench {

// splitmix64's finaliser: every input bit affects every output bit.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in [0, 1) from a hash value.
inline double unit_interval(std::uint64_t h) { return double(h >> 11) * 0x1.0p-53; }

}  // namespace loom_bench
