// Fiber stack overflow: guard regions that a frame cannot easily jump, and a SIGSEGV
// handler that names an overflow instead of leaving a bare segmentation fault.
//
// Every fiber stack is reserved with a PROT_NONE guard region below it
// (guard_size()). Its range is entered in a registry that a signal handler can read
// without locks. The handler is installed when the first guard is registered; it runs
// on an alternate signal stack (the faulting stack is exhausted), which loom gives the
// threads it creates and the adopted main thread when that has none (alt_signal_stack).
// A fault inside a guard prints one line naming the stack size and the variables that
// set it, then the process dies by SIGSEGV as it would have; any other SIGSEGV goes to
// the handler that was installed before loom's, unchanged. See docs/architecture.md,
// "Fiber stacks and overflow".
#pragma once

#include <cstddef>

namespace loom::core {

/// Size of the PROT_NONE region below a fiber stack of `usable` bytes: an eighth of the
/// stack, at least 64 KiB and at most 1 MiB (the kernel's own stack_guard_gap), whole
/// pages. Frames smaller than this cannot step over it; larger ones are caught only in
/// code built with -fstack-clash-protection, which touches every page it allocates.
std::size_t guard_size(std::size_t usable) noexcept;

/// Enters the guard [lo, lo + guard_bytes) of a stack of `usable` bytes (lying just
/// above it) in the registry, installing the SIGSEGV handler on the first call.
/// Returns the entry's id for unregister_guard(), or -1 if the registry is full (the
/// guard still faults, without the message).
int register_guard(const void* lo, std::size_t guard_bytes, std::size_t usable) noexcept;
/// Removes an entry before its range is unmapped. Ignores -1.
void unregister_guard(int id) noexcept;

/// The calling thread's alternate signal stack, for the overflow handler. `enable`
/// installs one unless the thread has one already (the main thread may have its own;
/// loom leaves it in place) or the mapping fails; `disable` takes it away again if
/// loom installed it and it is still the thread's, and unmaps it. Called on another
/// thread than the one that enabled it, `disable` leaves the stack installed and
/// mapped (a thread's signal stack can only be changed by that thread).
class alt_signal_stack {
public:
    alt_signal_stack() = default;
    alt_signal_stack(const alt_signal_stack&) = delete;
    alt_signal_stack& operator=(const alt_signal_stack&) = delete;
    ~alt_signal_stack() { disable(); }

    void enable() noexcept;
    void disable() noexcept;

private:
    void* mapping_ = nullptr;
    std::size_t mapping_size_ = 0;
    int owner_tid_ = 0;
};

}  // namespace loom::core
