// clang's threadprivate entry points for variables it does not keep in native TLS
// (-fno-openmp-use-tls): parallel/threadprivate.hpp.
#include "abi.hpp"
#include "parallel/threadprivate.hpp"

using namespace loom::omp;

LOOM_OMP_API void __kmpc_threadprivate_register(ident_t*, void* data, ctor_fn ctor,
                                                cctor_fn cctor, dtor_fn dtor) {
    threadprivate_register(data, ctor, cctor, dtor);
}

LOOM_OMP_API void* __kmpc_threadprivate(ident_t*, kmp_int32 gtid, void* data, std::size_t size) {
    return threadprivate_copy(gtid, data, size);
}

LOOM_OMP_API void* __kmpc_threadprivate_cached(ident_t*, kmp_int32 gtid, void* data,
                                               std::size_t size, void*** cache) {
    return threadprivate_copy_cached(gtid, data, size, cache);
}
