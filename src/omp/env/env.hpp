// Parsing of OMP_* / KMP_* / GOMP_* environment variables into the global ICVs.
// Every malformed value gives exactly one warning that names the variable and says
// what is used instead; nothing else is printed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "env/icv.hpp"

namespace loom::omp {

/// Fills `g` from the environment (called once, from globals()).
void parse_environment(global_icvs& g);

/// A requested fiber stack size brought into the scheduler's bounds (src/core/config.cpp:
/// below 64 KiB a fiber cannot hold the runtime's own frames; beyond 1 GiB a
/// reservation per fiber is unreasonable).
inline std::size_t clamp_stacksize(std::size_t bytes) {
    constexpr std::size_t lo = std::size_t{64} << 10, hi = std::size_t{1} << 30;
    return bytes < lo ? lo : bytes > hi ? hi : bytes;
}

/// Prints "loom: warning: ..." on stderr unless warnings are off (kmp_set_warnings_off).
void warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void set_warnings(bool on) noexcept;
/// Prints libomp's form "OMP: Warning #<number>: ..." (number: libomp 19's message
/// catalogue) where programs and LLVM's tests look for that prefix.
void warn_numbered(int number, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/// The "OMP: Info #<number>: ..." line that follows some of libomp's warnings.
void info_numbered(int number, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/// kmp_set_defaults("NAME=value"): applies a setting after start-up (the ones that
/// are read when used: OMP_TARGET_OFFLOAD, KMP_WARNINGS); one warning for others.
void apply_setting(const char* assignment);

}  // namespace loom::omp
