// Memory allocators, host fallback (OpenMP 5.2, 6.2-6.13): every predefined allocator
// and memory space is served by the C heap. Custom allocators honour the alignment,
// pool_size and fallback traits; the others (sync_hint, access, pinned, partition) are
// checked and need nothing on the host. Edge cases as libomp 19 (kmp_alloc.cpp): a
// request of 0 bytes gives NULL, realloc of NULL allocates, realloc to 0 bytes frees.
#include "routines/alloc.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "abi.hpp"
#include "env/env.hpp"
#include "parallel/thread.hpp"

using namespace loom::omp;

namespace {

using handle = allocator_handle;

// Trait keys and values (omp_alloctrait_key_t / omp_alloctrait_value_t of omp.h).
enum : int { atk_sync_hint = 1, atk_alignment, atk_access, atk_pool_size, atk_fallback,
             atk_fb_data, atk_pinned, atk_partition };
enum : std::uintptr_t { atv_contended = 3, atv_private = 6, atv_all = 7, atv_cgroup = 10,
                        atv_default_mem_fb = 11, atv_null_fb = 12, atv_abort_fb = 13,
                        atv_allocator_fb = 14, atv_environment = 15, atv_interleaved = 18 };
constexpr std::uintptr_t atv_default = ~std::uintptr_t{0};

// Handles up to this are predefined allocators (libomp's go to kmp_max_mem_alloc, 0x100,
// and llvm_omp_target_*_mem_alloc are 100-102); custom ones are heap addresses.
constexpr handle max_predefined = 1024;

struct custom_allocator {
    handle memspace = 0;
    std::size_t alignment = 0;
    std::size_t pool_size = 0;  // 0: no limit
    std::uintptr_t fallback = atv_default_mem_fb;
    handle fb_data = null_allocator;
    std::atomic<std::size_t> pool_used{0};
};

// Every block carries a header: the pointer to free, the allocator that served it (for
// the pool's accounting) and the one asked for (omp_realloc with a null allocator).
struct header {
    void* base;
    handle served_by;
    handle asked;
    std::size_t size;
    std::size_t total;
};

custom_allocator* custom(handle a) {
    return a > max_predefined ? reinterpret_cast<custom_allocator*>(a) : nullptr;
}

bool valid_memspace(handle m) { return m <= 4 || (m >= 100 && m <= 102); }

bool valid_trait(const alloc_trait& t) {
    const std::uintptr_t v = t.value;
    if (v == atv_default) return t.key >= atk_sync_hint && t.key <= atk_partition;
    switch (t.key) {
        case atk_sync_hint: return v >= atv_contended && v <= atv_private;
        case atk_alignment: return v > 0 && (v & (v - 1)) == 0;
        case atk_access: return v >= atv_all && v <= atv_cgroup;
        case atk_pool_size: return v > 0;
        case atk_fallback: return v >= atv_default_mem_fb && v <= atv_allocator_fb;
        case atk_fb_data: return true;
        case atk_pinned: return v <= 1;
        case atk_partition: return v >= atv_environment && v <= atv_interleaved;
        default: return false;
    }
}

void apply_trait(custom_allocator& c, const alloc_trait& t) {
    if (t.value == atv_default) return;
    switch (t.key) {
        case atk_alignment: c.alignment = t.value; break;
        case atk_pool_size: c.pool_size = t.value; break;
        case atk_fallback: c.fallback = t.value; break;
        case atk_fb_data: c.fb_data = t.value; break;
        default: break;  // nothing to do on the host
    }
}

// Takes `total` bytes from the pool; false when they do not fit. A CAS loop, so two
// threads that race for the last room cannot both fail (LLVM api/omp_alloc_null_fb).
bool reserve(custom_allocator& c, std::size_t total) {
    std::size_t used = c.pool_used.load(std::memory_order_relaxed);
    do {
        if (total > c.pool_size || used > c.pool_size - total) return false;
    } while (!c.pool_used.compare_exchange_weak(used, used + total, std::memory_order_relaxed));
    return true;
}

void unreserve(handle a, std::size_t total) {
    if (custom_allocator* c = custom(a); c && c->pool_size)
        c->pool_used.fetch_sub(total, std::memory_order_relaxed);
}

handle resolve(handle a) {
    return a == null_allocator ? static_cast<handle>(current_task()->icv.def_allocator) : a;
}

void* allocate(std::size_t align, std::size_t size, handle a, bool zero, handle asked);

// The allocator `a` could not serve the request: its fallback trait decides.
void* fall_back(std::size_t align, std::size_t size, handle a, bool zero, handle asked) {
    custom_allocator* c = custom(a);
    if (!c || c->fallback == atv_null_fb) return nullptr;
    if (c->fallback == atv_abort_fb) {
        std::fprintf(stderr, "loom: error: omp_alloc of %zu bytes failed and the allocator's "
                             "fallback is abort_fb; aborting\n", size);
        std::abort();
    }
    handle next = default_mem_alloc;
    if (c->fallback == atv_allocator_fb && c->fb_data != null_allocator && c->fb_data != a)
        next = c->fb_data;
    return allocate(align, size, next, zero, asked);
}

void* allocate(std::size_t align, std::size_t size, handle a, bool zero, handle asked) {
    if (size == 0) return nullptr;
    custom_allocator* c = custom(a);
    if (c && c->alignment > align) align = c->alignment;
    if (align < alignof(std::max_align_t)) align = alignof(std::max_align_t);
    const std::size_t extra = align + sizeof(header);
    if (size > static_cast<std::size_t>(-1) - extra) return fall_back(align, size, a, zero, asked);
    const std::size_t total = size + extra;
    if (c && c->pool_size && !reserve(*c, total)) return fall_back(align, size, a, zero, asked);
    void* base = zero ? std::calloc(1, total) : std::malloc(total);
    if (!base) {
        unreserve(a, total);
        return fall_back(align, size, a, zero, asked);
    }
    auto p = reinterpret_cast<std::uintptr_t>(base) + sizeof(header);
    p = (p + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
    auto* h = reinterpret_cast<header*>(p) - 1;
    *h = header{base, a, asked, size, total};
    return reinterpret_cast<void*>(p);
}

void* allocate_top(std::size_t align, std::size_t size, handle a, bool zero) {
    a = resolve(a);
    return allocate(align, size, a, zero, a);
}

void release(void* ptr) {
    if (!ptr) return;
    header* h = static_cast<header*>(ptr) - 1;
    unreserve(h->served_by, h->total);
    std::free(h->base);
}

bool count_overflows(std::size_t n, std::size_t size) {
    return size && n > static_cast<std::size_t>(-1) / size;
}

}  // namespace

namespace loom::omp {

allocator_handle make_allocator(allocator_handle memspace, int ntraits, const alloc_trait* traits) {
    if (!valid_memspace(memspace)) {
        warn("omp_init_allocator: %lu is not a memory space; returning omp_null_allocator",
             static_cast<unsigned long>(memspace));
        return null_allocator;
    }
    for (int i = 0; i < ntraits && traits; ++i) {
        if (valid_trait(traits[i])) continue;
        warn("omp_init_allocator: trait %d has the invalid value %lu; returning "
             "omp_null_allocator", traits[i].key, static_cast<unsigned long>(traits[i].value));
        return null_allocator;
    }
    auto* c = new (std::nothrow) custom_allocator;
    if (!c) return null_allocator;
    c->memspace = memspace;
    for (int i = 0; i < ntraits && traits; ++i) apply_trait(*c, traits[i]);
    return reinterpret_cast<handle>(c);
}

}  // namespace loom::omp

LOOM_OMP_API handle omp_init_allocator(handle memspace, int ntraits, const alloc_trait* traits) {
    return make_allocator(memspace, ntraits, traits);
}

LOOM_OMP_API void omp_destroy_allocator(handle a) { delete custom(a); }

// def-allocator-var is an ICV of the data environment: implicit tasks inherit it.
LOOM_OMP_API void omp_set_default_allocator(handle a) {
    writable_icvs().def_allocator = a ? a : default_mem_alloc;
}
LOOM_OMP_API handle omp_get_default_allocator() { return current_task()->icv.def_allocator; }

LOOM_OMP_API void* omp_alloc(std::size_t size, handle a) { return allocate_top(0, size, a, false); }
LOOM_OMP_API void* omp_aligned_alloc(std::size_t align, std::size_t size, handle a) {
    if (align & (align - 1)) return nullptr;
    return allocate_top(align, size, a, false);
}
LOOM_OMP_API void* omp_calloc(std::size_t n, std::size_t size, handle a) {
    if (count_overflows(n, size)) return nullptr;
    return allocate_top(0, n * size, a, true);
}
LOOM_OMP_API void* omp_aligned_calloc(std::size_t align, std::size_t n, std::size_t size, handle a) {
    if ((align & (align - 1)) || count_overflows(n, size)) return nullptr;
    return allocate_top(align, n * size, a, true);
}
// OpenMP 5.2, 6.9: a null `a` means the allocator `ptr` came from (the default one when
// ptr is NULL); the old block is freed only once the new one exists.
LOOM_OMP_API void* omp_realloc(void* ptr, std::size_t size, handle a, handle) {
    if (size == 0) {
        release(ptr);
        return nullptr;
    }
    if (a == null_allocator && ptr) a = (static_cast<header*>(ptr) - 1)->asked;
    // The old block's room in its pool counts for the new block, wherever the new one
    // is served from (the allocator asked, or its fallbacks): the block it replaces is
    // freed (libgomp reserves only the growth). A 3071-byte block grows to 3072 in a
    // 4096-byte pool. If the new block does not come, the room is taken back.
    header* old_h = ptr ? static_cast<header*>(ptr) - 1 : nullptr;
    custom_allocator* pool = old_h ? custom(old_h->served_by) : nullptr;
    if (pool && pool->pool_size) pool->pool_used.fetch_sub(old_h->total, std::memory_order_relaxed);
    else pool = nullptr;
    void* fresh = allocate_top(0, size, a, false);
    if (pool) pool->pool_used.fetch_add(old_h->total, std::memory_order_relaxed);
    if (!fresh || !ptr) return fresh;
    std::size_t old = old_h->size;
    std::memcpy(fresh, ptr, old < size ? old : size);
    release(ptr);
    return fresh;
}
LOOM_OMP_API void omp_free(void* ptr, handle) { release(ptr); }
