// Coroutine frames from the scheduler's task-record cache. A loom promise type derives
// from coro_frame_allocation, so a frame of up to ext::max_pooled_storage bytes is a
// record taken from the calling thread's cache (as a task's closure is) and costs no
// allocator call in steady state; a larger one is a heap block. The frame sits in the
// record's storage, behind the 32-byte header that free_large_task reads to find the
// record's size class. Under AddressSanitizer and ThreadSanitizer frames come from the
// heap instead, so that they see every frame's life (as for the futures' block cache).
#pragma once

#include <cstddef>
#include <new>

#include "loom/detail/block_cache.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

struct coro_frame_allocation {
    static void* operator new(std::size_t size) {
#if LOOM_BLOCK_CACHE
        ext::task* r = size <= ext::task::storage_size ? ext::allocate_task() : ext::allocate_large_task(size);
        return r->storage_address();
#else
        return ::operator new(size);
#endif
    }

    // The compiler passes the size it allocated, so the record's class follows from it.
    static void operator delete(void* frame, std::size_t size) noexcept {
#if LOOM_BLOCK_CACHE
        auto* r = std::launder(reinterpret_cast<ext::task*>(static_cast<std::byte*>(frame) -
                                                            offsetof(ext::task, storage)));
        if (size <= ext::task::storage_size) {
            ext::free_task(r);
        } else {
            ext::free_large_task(r);
        }
#else
        ::operator delete(frame, size);
#endif
    }
};

}  // namespace loom::detail
