// A per-thread cache of small memory blocks for futures' shared states (and the
// frames of when_all / dataflow), in front of the global allocator: a fine-grained
// async/get pair then costs no malloc/free in steady state. A block freed on another
// thread than the one that allocated it joins that thread's cache (as task records
// do in the scheduler). Compiled out under AddressSanitizer / ThreadSanitizer so that
// they see every allocation.
#pragma once

#include <cstddef>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(LOOM_SANITIZE_ADDRESS) || \
    defined(LOOM_SANITIZE_THREAD)
#define LOOM_BLOCK_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LOOM_BLOCK_CACHE 0
#endif
#endif
#ifndef LOOM_BLOCK_CACHE
#define LOOM_BLOCK_CACHE 1
#endif

namespace loom::detail {

class block_cache {
public:
    static constexpr std::size_t granule = 64;  // size classes: 64, 128, 192, 256 bytes
    static constexpr std::size_t classes = 4;
    static constexpr unsigned max_cached = 512;  // per class and thread

    block_cache() = default;
    block_cache(const block_cache&) = delete;
    block_cache& operator=(const block_cache&) = delete;
    ~block_cache() {
        for (std::size_t c = 0; c < classes; ++c) {
            while (block* b = head_[c]) {
                head_[c] = b->next;
                ::operator delete(static_cast<void*>(b), (c + 1) * granule);
            }
        }
    }

    static void* allocate(std::size_t size) {
#if LOOM_BLOCK_CACHE
        const std::size_t c = (size - 1) / granule;
        if (c < classes) {
            block_cache& bc = local();
            if (block* b = bc.head_[c]) {
                bc.head_[c] = b->next;
                --bc.count_[c];
                return b;
            }
            return ::operator new((c + 1) * granule);
        }
#endif
        return ::operator new(size);
    }

    static void deallocate(void* p, std::size_t size) noexcept {
#if LOOM_BLOCK_CACHE
        const std::size_t c = (size - 1) / granule;
        if (c < classes) {
            block_cache& bc = local();
            if (bc.count_[c] < max_cached) {
                block* b = static_cast<block*>(p);
                b->next = bc.head_[c];
                bc.head_[c] = b;
                ++bc.count_[c];
                return;
            }
            ::operator delete(p, (c + 1) * granule);
            return;
        }
#endif
        ::operator delete(p, size);
    }

private:
    struct block {
        block* next;
    };
    // Asked anew on every call: a task may resume on another thread.
    static block_cache& local() noexcept {
        thread_local block_cache cache;
        return cache;
    }

    block* head_[classes] = {};
    unsigned count_[classes] = {};
};

}  // namespace loom::detail
