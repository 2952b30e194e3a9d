// libgomp's own environment variables (GOMP_SPINCOUNT, GOMP_CPU_AFFINITY, GOMP_DEBUG),
// parsed with libgomp's syntax into the global ICVs; env.cpp calls each where the
// variable takes its place among the OMP_* / KMP_* ones. GOMP_STACKSIZE is one of the
// stack size variables of env.cpp (same units as OMP_STACKSIZE, which wins).
#pragma once

#include "env/icv.hpp"

namespace loom::omp {

/// GOMP_SPINCOUNT: a spin count (optional k/M/G/T suffix, powers of 1000) or
/// "infinite"/"infinity"; sets the spin budget, which then wins over OMP_WAIT_POLICY
/// (libgomp; KMP_BLOCKTIME, parsed after, wins over both).
void parse_gomp_spincount(global_icvs& g);

/// GOMP_CPU_AFFINITY: when OMP_PLACES is unset and OMP_PROC_BIND is not false, makes one
/// place per listed processor and binds threads to them (bind-var true unless set).
/// True when it set the places.
bool parse_gomp_cpu_affinity(global_icvs& g);

/// GOMP_DEBUG: accepted; a non-zero value is said to have no effect.
void parse_gomp_debug();

}  // namespace loom::omp
