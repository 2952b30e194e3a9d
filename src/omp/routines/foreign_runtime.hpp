// The one-time notice that another OpenMP runtime is loaded beside loom (GNU libgomp,
// LLVM's libomp, Intel's libiomp5, or a copy vendored under a hashed name such as
// libgomp-a34b3233.so.1 in Python wheels): code bound to it runs on that runtime's own
// threads, beside loom's pool, so the process may oversubscribe its CPUs.
#pragma once

namespace loom::omp {

/// Looks at every loaded object once (at pool start).
void check_foreign_runtimes() noexcept;
/// At region starts: looks again only when the set of loaded objects changed
/// (dl_iterate_phdr's load/unload counters), at most every 100 ms, and never after the
/// notice was given.
void recheck_foreign_runtimes() noexcept;

}  // namespace loom::omp
