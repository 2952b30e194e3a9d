// clang's entry points for the allocate directive and clause: the omp_* allocator
// routines (routines/alloc.hpp) with the caller's gtid first.
#include <cstddef>

#include "abi.hpp"
#include "routines/alloc.hpp"

using loom::omp::alloc_trait;
using loom::omp::kmp_int32;
using handle = loom::omp::allocator_handle;

LOOM_OMP_API void* __kmpc_alloc(kmp_int32, std::size_t size, handle a) {
    return omp_alloc(size, a);
}
LOOM_OMP_API void* __kmpc_aligned_alloc(kmp_int32, std::size_t align, std::size_t size, handle a) {
    return omp_aligned_alloc(align, size, a);
}
LOOM_OMP_API void* __kmpc_calloc(kmp_int32, std::size_t n, std::size_t size, handle a) {
    return omp_calloc(n, size, a);
}
LOOM_OMP_API void* __kmpc_realloc(kmp_int32, void* ptr, std::size_t size, handle a, handle fa) {
    return omp_realloc(ptr, size, a, fa);
}
LOOM_OMP_API void __kmpc_free(kmp_int32, void* ptr, handle a) { omp_free(ptr, a); }
LOOM_OMP_API handle __kmpc_init_allocator(kmp_int32, handle ms, int n, const alloc_trait* t) {
    return omp_init_allocator(ms, n, t);
}
LOOM_OMP_API void __kmpc_destroy_allocator(kmp_int32, handle a) { omp_destroy_allocator(a); }
LOOM_OMP_API void __kmpc_set_default_allocator(kmp_int32, handle a) {
    omp_set_default_allocator(a);
}
LOOM_OMP_API handle __kmpc_get_default_allocator(kmp_int32) { return omp_get_default_allocator(); }
