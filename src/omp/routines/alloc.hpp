// Memory allocators (alloc.cpp): what the environment parser needs to make the
// allocator OMP_ALLOCATOR names. Handle values are those of libomp 19's omp.h.
#pragma once

#include <cstdint>

namespace loom::omp {

using allocator_handle = std::uintptr_t;

/// omp_alloctrait_t.
struct alloc_trait {
    int key;
    std::uintptr_t value;
};

inline constexpr allocator_handle null_allocator = 0;      // omp_null_allocator
inline constexpr allocator_handle default_mem_alloc = 1;   // omp_default_mem_alloc
inline constexpr allocator_handle last_predefined_alloc = 8;  // omp_thread_mem_alloc

/// omp_init_allocator: a new allocator on `memspace`, or null_allocator (after one
/// warning) when the memory space or a trait is invalid.
allocator_handle make_allocator(allocator_handle memspace, int ntraits, const alloc_trait* traits);

}  // namespace loom::omp
