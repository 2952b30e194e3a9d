// GOMP_alloc / GOMP_free (GOMP_5.0.1): what gcc 12 emits for the `allocate` directive
// and clause, an OpenMP allocator call with the allocator handle as an integer (GCC 12
// libgomp/allocator.c forwards them to omp_aligned_alloc and omp_free).
#include <cstddef>
#include <cstdint>

#include "abi.hpp"

extern "C" {
void* omp_aligned_alloc(std::size_t alignment, std::size_t size, std::uintptr_t allocator);
void omp_free(void* ptr, std::uintptr_t allocator);
}

LOOM_OMP_API void* GOMP_alloc(std::size_t alignment, std::size_t size, std::uintptr_t allocator) {
    return omp_aligned_alloc(alignment, size, allocator);
}

LOOM_OMP_API void GOMP_free(void* ptr, std::uintptr_t allocator) { omp_free(ptr, allocator); }
