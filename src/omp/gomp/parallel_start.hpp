// GCC 4.x's split parallel region (parallel.c GOMP_parallel_start / GOMP_parallel_end):
// the encountering thread calls the body itself between the two calls.
#pragma once

#include "gomp/gomp_abi.hpp"

namespace loom::omp::gomp {

/// Starts a region of `num_threads` (0: default) running fn(data) on members 1..n-1 and
/// returns in member 0's implicit task, whose body the caller runs. `prologue(arg)`, when
/// given, runs in every member (the caller too) before its body: the combined
/// parallel-loop/sections forms begin their work share there. `cleanup(arg)` runs after
/// the join.
void split_start(body_fn fn, void* data, unsigned num_threads, unsigned flags,
                 void (*prologue)(void*) = nullptr, void* arg = nullptr,
                 void (*cleanup)(void*) = nullptr);
/// Joins the region the calling thread started last with split_start.
void split_end();

}  // namespace loom::omp::gomp
