// Memory allocators (alloc.cpp): what the environment parser needs to make the
// allocator OMP_ALLOCATOR names. Handle values are those of libomp 19's omp.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "abi.hpp"

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

// The omp_* allocator routines (alloc.cpp), shared by both ABIs: clang's __kmpc_alloc
// family (kmpc/alloc.cpp) forwards to them. Handles as allocator_handle (the values of
// omp_allocator_handle_t / omp_memspace_handle_t).
LOOM_OMP_API loom::omp::allocator_handle omp_init_allocator(
    loom::omp::allocator_handle memspace, int ntraits, const loom::omp::alloc_trait* traits);
LOOM_OMP_API void omp_destroy_allocator(loom::omp::allocator_handle a);
LOOM_OMP_API void omp_set_default_allocator(loom::omp::allocator_handle a);
LOOM_OMP_API loom::omp::allocator_handle omp_get_default_allocator();
LOOM_OMP_API void* omp_alloc(std::size_t size, loom::omp::allocator_handle a);
LOOM_OMP_API void* omp_aligned_alloc(std::size_t align, std::size_t size,
                                     loom::omp::allocator_handle a);
LOOM_OMP_API void* omp_calloc(std::size_t n, std::size_t size, loom::omp::allocator_handle a);
LOOM_OMP_API void* omp_realloc(void* ptr, std::size_t size, loom::omp::allocator_handle a,
                               loom::omp::allocator_handle free_allocator);
LOOM_OMP_API void omp_free(void* ptr, loom::omp::allocator_handle a);
