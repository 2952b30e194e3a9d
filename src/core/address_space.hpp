#pragma once
// How much address space loom may still take for stacks under a finite RLIMIT_AS
// (`ulimit -v`). loom is a guest: its stacks (one thread stack and one fiber per
// worker, more fibers for parked tasks) must not use up the last of the process's
// address space, or the program's next malloc fails -- and so do the runtime's own
// small allocations, where nothing but std::terminate can follow. So a stack is
// taken only while a reserve stays free after it.
#include <cstddef>

namespace loom::core {

/// Address space kept free for the program (and loom's own heap records).
inline constexpr std::size_t address_space_reserve = std::size_t{32} << 20;

/// Whether mapping `bytes` more leaves the reserve free under RLIMIT_AS. Always true
/// without a limit. Sets errno to ENOMEM when false, as a failed mmap would.
/// A system call (two with a limit): for stack creation, never a hot path.
bool address_space_allows(std::size_t bytes) noexcept;

/// The stack a std::thread gets (the process's default pthread attributes).
std::size_t default_thread_stack_size() noexcept;

}  // namespace loom::core
