// Doacross loops (`ordered(n)` with `depend(sink/source)`, OpenMP 5.2 `doacross`): a
// member's side. Protocol and memory-ordering argument: doacross.cpp.
#pragma once

#include "abi.hpp"

namespace loom::omp {

struct implicit_task;

/// One dimension of a doacross loop as the compiler passes it (libomp's kmp_dim, kmp.h):
/// bounds inclusive; clang passes lo = 0, up = trip count, st = 1 (normalised counters).
struct kmp_dim {
    kmp_int64 lo;
    kmp_int64 up;
    kmp_int64 st;
};

/// Begins a doacross loop of `ndims` dimensions (the team's next construct).
void doacross_begin(implicit_task* it, int ndims, const kmp_dim* dims);
/// Waits until the iteration `vec` (one index per dimension) was posted.
void doacross_wait(implicit_task* it, const kmp_int64* vec);
/// Posts the iteration `vec`: its waiters may go on.
void doacross_post(implicit_task* it, const kmp_int64* vec);
/// The member is done with the loop (the last one frees its state).
void doacross_end(implicit_task* it);

}  // namespace loom::omp
