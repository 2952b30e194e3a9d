// Spinning, shared by the layers (core, api, omp): the processor's spin-wait hint and a
// test-and-test-and-set lock for critical sections of a few instructions.
#pragma once

#include <atomic>
#include <thread>

namespace loom::ext {

/// The processor's spin-wait hint (PAUSE on x86, YIELD on AArch64): lets the sibling
/// hyperthread run and keeps the spin loop from flooding the memory system.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#else
    std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

/// A test-and-test-and-set lock for critical sections of a few instructions (queue
/// links, wait lists), never held across a suspension point or a system call. A waiter
/// spins on a plain load (no line transfer while the holder works), and after 64 looks
/// yields its CPU: on an oversubscribed machine the holder may be preempted.
class spin_lock {
public:
    void lock() noexcept {
        // The free case inline, the wait out of line: a caller's fast path (a task
        // record taken from a depot, a queue link) keeps no frame for the wait's call.
        if (!locked_.exchange(true, std::memory_order_acquire)) [[likely]] return;
        lock_contended();
    }
    bool try_lock() noexcept {
        return !locked_.load(std::memory_order_relaxed) &&
               !locked_.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

private:
    static constexpr unsigned yield_after = 64;

    [[gnu::noinline, gnu::cold]] void lock_contended() noexcept {
        do {
            unsigned spins = 0;
            while (locked_.load(std::memory_order_relaxed)) {
                if (++spins < yield_after)
                    cpu_relax();
                else
                    std::this_thread::yield();
            }
        } while (locked_.exchange(true, std::memory_order_acquire));
    }

    std::atomic<bool> locked_{false};
};

}  // namespace loom::ext
