// Coroutine frames in task records. A loom promise type derives from
// coro_frame_allocation, so its frame sits in the storage of a task record: one of up
// to ext::max_pooled_storage bytes comes from the calling thread's record cache (as a
// task's closure does) and costs no allocator call in steady state, a larger one is a
// heap block with the same 32-byte header. Under AddressSanitizer and ThreadSanitizer
// every frame is its own heap block (header included), so that they see every frame's
// life, as for the futures' block cache.
//
// The header is free while the frame lives: a promise that derives from
// resumable_frame uses it as the task that resumes its coroutine after a suspension, so
// a suspension costs no allocation. The promise finds its record through a hand-off from
// operator new, taken in its constructor: operator new notes the record it made in a
// thread-local slot, and the promise takes it if the promise itself lies inside that
// record's storage. It always does when operator new made this frame; when the compiler
// elided the allocation (the frame is then part of the caller's), or the slot names
// another frame (a parameter's copy constructor started a coroutine in between, or the
// thread changed), the check fails and the coroutine's suspensions take records of their
// own instead (coro_resume.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "loom/detail/block_cache.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

/// What operator new made last on this thread (the hand-off to the promise).
struct frame_handoff {
    ext::task* record = nullptr;
    std::size_t size = 0;
};
inline thread_local frame_handoff last_frame;

struct coro_frame_allocation {
    static void* operator new(std::size_t size) {
#if LOOM_BLOCK_CACHE
        ext::task* r = size <= ext::task::storage_size ? ext::allocate_task() : ext::allocate_large_task(size);
#else
        ext::task* r = ::new (::operator new(offsetof(ext::task, storage) + size,
                                             std::align_val_t{alignof(ext::task)})) ext::task;
#endif
        last_frame = {r, size};
        return r->storage_address();
    }

    // The compiler passes the size it allocated, so the record's class follows from it.
    static void operator delete(void* frame, std::size_t size) noexcept {
        ext::task* r = record_of(frame);
#if LOOM_BLOCK_CACHE
        if (size <= ext::task::storage_size) {
            ext::free_task(r);
        } else {
            ext::free_large_task(r);
        }
#else
        (void)size;
        r->~task();
        ::operator delete(static_cast<void*>(r), std::align_val_t{alignof(ext::task)});
#endif
    }

    static ext::task* record_of(void* frame) noexcept {
        return std::launder(reinterpret_cast<ext::task*>(static_cast<std::byte*>(frame) -
                                                         offsetof(ext::task, storage)));
    }
};

/// Base of promise types whose frame record resumes their coroutine.
class resumable_frame {
public:
    resumable_frame() noexcept {
        const frame_handoff h = std::exchange(last_frame, frame_handoff{});
        if (h.record == nullptr) return;
        // Addresses compared as integers: the promise and the record need not be related
        // objects (an elided frame) and `<` on unrelated pointers is unspecified.
        const auto begin = reinterpret_cast<std::uintptr_t>(h.record->storage_address());
        const auto self = reinterpret_cast<std::uintptr_t>(this);
        if (self >= begin && self < begin + h.size) record_ = h.record;
    }
    resumable_frame(const resumable_frame&) = delete;
    resumable_frame& operator=(const resumable_frame&) = delete;

    /// The task record that holds this frame, or null (resume with records of its own).
    [[nodiscard]] ext::task* frame_record() const noexcept { return record_; }

private:
    ext::task* record_ = nullptr;
};

/// Base of promise types that do not use their frame record: they take the hand-off
/// all the same, so that it never outlives the frame it names.
struct frame_record_unused {
    frame_record_unused() noexcept { last_frame = frame_handoff{}; }
};

}  // namespace loom::detail
