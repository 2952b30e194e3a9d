// threadprivate variables that the compiler does not keep in native TLS
// (-fno-openmp-use-tls): one copy per OS thread, indexed by gtid (threadprivate.cpp).
#pragma once

#include <cstddef>

#include "abi.hpp"

namespace loom::omp {

using ctor_fn = void* (*)(void*);
using cctor_fn = void* (*)(void*, void*);
using dtor_fn = void (*)(void*);

/// Registers the C++ constructor, copy constructor and destructor of the variable at
/// `data` (any may be null).
void threadprivate_register(void* data, ctor_fn ctor, cctor_fn cctor, dtor_fn dtor);
/// The copy of the variable at `data` (`size` bytes) of thread `gtid`, made on first use.
void* threadprivate_copy(kmp_int32 gtid, void* data, std::size_t size);
/// As threadprivate_copy, the variable's record kept in the compiler's `cache` slot.
void* threadprivate_copy_cached(kmp_int32 gtid, void* data, std::size_t size, void*** cache);

}  // namespace loom::omp
