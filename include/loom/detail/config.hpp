// Small helpers shared by the public headers: debug checks of API misuse and the
// CPU relax hint used by short spins.
#pragma once

#include "loom/ext/export.hpp"

namespace loom::detail {

/// Reports API misuse that the standard calls undefined (debug builds) and aborts.
[[noreturn]] LOOM_EXPORT void misuse(const char* what) noexcept;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

}  // namespace loom::detail

#if defined(NDEBUG)
#define LOOM_CHECK_USAGE(cond, what) ((void)0)
#else
#define LOOM_CHECK_USAGE(cond, what) \
    ((cond) ? (void)0 : ::loom::detail::misuse(what))
#endif
