// A direct target for the libgomp-versioned entry of a routine programs call in their
// inner loops.
//
// gomp/versions.cpp exports name@OMP_n.m for every omp_* routine as a stub that jumps to
// the routine through the PLT (the routine is a default-visibility export, so a plain
// jump to it is not allowed in a shared object): one more indirect jump than libgomp on
// every call from a gcc-built binary. For the lock routines the length of that path
// shows: in the EPCC lock benchmark (two threads taking one omp_lock_t in turn around
// a short delay) the time per set/unset pair depends on how soon a thread that unsets
// can set again before the waiting thread takes the lock (a cache-line transfer per
// pair). The same gcc-built binary runs at ~10 ns per pair calling libgomp's routines
// through function pointers and at ~22 ns through its PLT, so the lock entries keep no
// avoidable jump: their stubs jump straight to the routine.
//
// LOOM_GCC_DIRECT_TARGET(routine), placed after the routine's definition, defines a
// hidden alias of it; LOOM_GCC_VERSION_DIRECT in versions.cpp jumps there directly.
// A program that interposes the routine (LD_PRELOAD) still gets its own for the
// unversioned and the default-versioned names; only gcc-built callers bound to loom's
// OMP_n.m version skip the interposer, as they would with libgomp itself.
#pragma once

#define LOOM_GCC_DIRECT_NAME(routine) "__loom_gcc_direct_" #routine

#define LOOM_GCC_DIRECT_TARGET(routine)                                               \
    extern "C" __attribute__((alias(#routine), visibility("hidden"))) decltype(routine) \
        __loom_gcc_direct_##routine;
