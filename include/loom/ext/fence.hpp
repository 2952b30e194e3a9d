// A full (store-load) memory fence, shared by the layers (core, omp). ThreadSanitizer
// does not model std::atomic_thread_fence, and gcc warns about it (-Wtsan); in TSan
// builds a sequentially consistent read-modify-write on a private word stands in for it
// (a locked instruction, itself a full barrier on x86). TSan judges the protocols by the
// atomic accesses around the fence, which carry their own orderings.
#pragma once

#include <atomic>

namespace loom::ext {

inline void full_fence() noexcept {
#if defined(LOOM_SANITIZE_THREAD)
    static std::atomic<int> word{0};
    word.fetch_add(0, std::memory_order_seq_cst);
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace loom::ext
