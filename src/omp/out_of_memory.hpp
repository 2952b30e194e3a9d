// Out of memory inside the OpenMP runtime. Its allocations happen under entry points
// called from C and in noexcept paths (barriers, task completion), where a
// std::bad_alloc could only end in std::terminate, naming no cause the user can act
// on. As libomp ("OMP: Error #179: ... out of memory") and libgomp ("libgomp: Out of
// memory allocating N bytes") do, loom then says what it was allocating and stops.
#pragma once
#include <cstddef>
#include <new>

namespace loom::omp {

/// Prints "loom: error: out of memory allocating N bytes for <what> ..." and aborts.
[[noreturn]] void out_of_memory(const char* what, std::size_t bytes) noexcept;

/// alloc(), or out_of_memory(what, bytes) if it throws std::bad_alloc. No cost on the
/// path that does not throw (table-based unwinding).
template <class Alloc>
inline auto allocate_or_stop(Alloc alloc, const char* what, std::size_t bytes) noexcept
    -> decltype(alloc()) {
    try {
        return alloc();
    } catch (const std::bad_alloc&) {
        out_of_memory(what, bytes);
    }
}

}  // namespace loom::omp
