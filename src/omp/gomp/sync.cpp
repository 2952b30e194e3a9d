// GOMP synchronisation (libgomp barrier.c, critical.c, atomic via critical.c, ordered.c):
// barrier, critical (unnamed and named), the atomic fallback lock and ordered, each onto
// its kmpc counterpart.
#include "gomp/gomp_abi.hpp"

LOOM_OMP_API void __kmpc_critical(loom::omp::ident_t*, loom::omp::kmp_int32,
                                  loom::omp::kmp_critical_name* crit);
LOOM_OMP_API void __kmpc_end_critical(loom::omp::ident_t*, loom::omp::kmp_int32,
                                      loom::omp::kmp_critical_name* crit);
LOOM_OMP_API void __kmpc_atomic_start(void);
LOOM_OMP_API void __kmpc_atomic_end(void);

namespace loom::omp::gomp {
namespace {

// critical.c: the unnamed critical section is one lock for the whole program; clang's
// unnamed one (.gomp_critical_user_ in its common storage) is another object, as in
// libomp: the two compilers' unnamed sections do not exclude each other.
kmp_critical_name unnamed_critical = {};

// A named section's storage as gcc emits it: a pointer-sized common symbol
// (.gomp_critical_user_NAME) that the runtime initialises lazily (critical.c). kmpc's
// critical keeps its lock pointer in the first eight bytes of its 32-byte name and
// touches nothing else (sync/critical.hpp), so gcc's slot serves as one.
kmp_critical_name* as_name(void** pptr) { return reinterpret_cast<kmp_critical_name*>(pptr); }

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

LOOM_OMP_API void GOMP_barrier() { __kmpc_barrier(&gomp_loc, gtid()); }

// barrier.c: true when the enclosing parallel region was cancelled.
LOOM_OMP_API bool GOMP_barrier_cancel() { return __kmpc_cancel_barrier(&gomp_loc, gtid()) != 0; }

LOOM_OMP_API void GOMP_critical_start() { __kmpc_critical(&gomp_loc, gtid(), &unnamed_critical); }
LOOM_OMP_API void GOMP_critical_end() { __kmpc_end_critical(&gomp_loc, gtid(), &unnamed_critical); }

LOOM_OMP_API void GOMP_critical_name_start(void** pptr) {
    __kmpc_critical(&gomp_loc, gtid(), as_name(pptr));
}
LOOM_OMP_API void GOMP_critical_name_end(void** pptr) {
    __kmpc_end_critical(&gomp_loc, gtid(), as_name(pptr));
}

// critical.c: the atomic fallback of gcc (types without a lock-free form) is one global
// lock, shared with clang's __kmpc_atomic_start.
LOOM_OMP_API void GOMP_atomic_start() { __kmpc_atomic_start(); }
LOOM_OMP_API void GOMP_atomic_end() { __kmpc_atomic_end(); }

// ordered.c: gcc reports every iteration that executes its ordered region; the end also
// finishes the iteration's ordered turn (kmpc's per-iteration __kmpc_dispatch_fini), so
// the next iteration of the chunk waits for its own turn.
LOOM_OMP_API void GOMP_ordered_start() { __kmpc_ordered(&gomp_loc, gtid()); }
LOOM_OMP_API void GOMP_ordered_end() {
    __kmpc_end_ordered(&gomp_loc, gtid());
    __kmpc_dispatch_fini_8(&gomp_loc, gtid());
}
