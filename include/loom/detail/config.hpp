// Small helpers shared by the public headers: debug checks of API misuse and the
// CPU relax hint used by short spins.
#pragma once

#include "loom/ext/export.hpp"
#include "loom/ext/spin.hpp"

namespace loom::detail {

/// Reports API misuse that the standard calls undefined (debug builds) and aborts.
[[noreturn]] LOOM_EXPORT void misuse(const char* what) noexcept;

/// The processor's spin-wait hint (one copy for every layer: ext/spin.hpp).
using ext::cpu_relax;

}  // namespace loom::detail

#if defined(NDEBUG)
#define LOOM_CHECK_USAGE(cond, what) ((void)0)
#else
#define LOOM_CHECK_USAGE(cond, what) \
    ((cond) ? (void)0 : ::loom::detail::misuse(what))
#endif
