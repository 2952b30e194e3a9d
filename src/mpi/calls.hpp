// How loom::mpi may call MPI: the thread level MPI provides, checked once, and the
// lock that serialises loom::mpi's MPI calls under MPI_THREAD_SERIALIZED.
#pragma once

#include "loom/ext/spin.hpp"

namespace loom::mpi::impl {

/// Throws loom::mpi::error unless MPI is initialised (and not finalised) with at
/// least MPI_THREAD_SERIALIZED. Cheap after the first success.
void require_usable_mpi();
/// The level MPI provides, once require_usable_mpi() succeeded.
int provided_level() noexcept;
/// MPI calls must not overlap (MPI_THREAD_SERIALIZED): they take calls_mutex().
bool serialized() noexcept;
ext::spin_lock& calls_mutex() noexcept;
/// Forgets the checked level (the environment that checked it finalised MPI).
void forget_level() noexcept;

}  // namespace loom::mpi::impl
