// Memory allocators, host fallback: every predefined allocator and memory space is
// served by the C heap; custom allocators honour the alignment and fallback traits.
#include <cstdlib>
#include <cstring>
#include <new>

#include "abi.hpp"
#include "thread.hpp"

using namespace loom::omp;

namespace {

using handle = std::uintptr_t;

constexpr handle null_allocator = 0;
constexpr handle default_mem_alloc = 1;
constexpr handle max_predefined = 1000;  // predefined handles are small integers

struct trait {
    int key;
    std::uintptr_t value;
};

struct custom_allocator {
    handle memspace = 0;
    std::size_t alignment = 0;
    int fallback = 11;  // omp_atv_default_mem_fb
    handle fb_data = 0;
};

// Every block carries a header with its allocator and the pointer to free.
struct header {
    void* base;
    handle allocator;
    std::size_t size;
};

thread_local handle tl_default = default_mem_alloc;

std::size_t alignment_of(handle a, std::size_t align) {
    if (a > max_predefined) {
        auto* c = reinterpret_cast<custom_allocator*>(a);
        if (c->alignment > align) align = c->alignment;
    }
    if (align < alignof(std::max_align_t)) align = alignof(std::max_align_t);
    return align;
}

void* allocate(std::size_t align, std::size_t size, handle a, bool zero) {
    if (a == null_allocator) a = tl_default;
    align = alignment_of(a, align);
    std::size_t total = size + align + sizeof(header);
    void* base = zero ? std::calloc(1, total) : std::malloc(total);
    if (!base) {
        if (a > max_predefined) {
            auto* c = reinterpret_cast<custom_allocator*>(a);
            if (c->fallback == 14 /* allocator_fb */ && c->fb_data)
                return allocate(align, size, c->fb_data, zero);
            if (c->fallback == 13 /* abort_fb */) std::abort();
        }
        return nullptr;
    }
    auto p = reinterpret_cast<std::uintptr_t>(base) + sizeof(header);
    p = (p + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
    auto* h = reinterpret_cast<header*>(p) - 1;
    h->base = base;
    h->allocator = a;
    h->size = size;
    return reinterpret_cast<void*>(p);
}

void release(void* ptr) {
    if (!ptr) return;
    std::free((static_cast<header*>(ptr) - 1)->base);
}

}  // namespace

LOOM_OMP_API handle omp_init_allocator(handle memspace, int ntraits, const trait* traits) {
    auto* c = new (std::nothrow) custom_allocator;
    if (!c) return null_allocator;
    c->memspace = memspace;
    for (int i = 0; i < ntraits && traits; ++i) {
        switch (traits[i].key) {
            case 2: c->alignment = traits[i].value; break;          // omp_atk_alignment
            case 5: c->fallback = static_cast<int>(traits[i].value); break;  // omp_atk_fallback
            case 6: c->fb_data = traits[i].value; break;            // omp_atk_fb_data
            default: break;
        }
    }
    if (c->alignment & (c->alignment - 1)) {
        delete c;
        return null_allocator;
    }
    return reinterpret_cast<handle>(c);
}

LOOM_OMP_API void omp_destroy_allocator(handle a) {
    if (a > max_predefined) delete reinterpret_cast<custom_allocator*>(a);
}

LOOM_OMP_API void omp_set_default_allocator(handle a) { tl_default = a ? a : default_mem_alloc; }
LOOM_OMP_API handle omp_get_default_allocator() { return tl_default; }

LOOM_OMP_API void* omp_alloc(std::size_t size, handle a) { return allocate(0, size, a, false); }
LOOM_OMP_API void* omp_aligned_alloc(std::size_t align, std::size_t size, handle a) {
    if (align & (align - 1)) return nullptr;
    return allocate(align, size, a, false);
}
LOOM_OMP_API void* omp_calloc(std::size_t n, std::size_t size, handle a) {
    if (size && n > static_cast<std::size_t>(-1) / size) return nullptr;
    return allocate(0, n * size, a, true);
}
LOOM_OMP_API void* omp_aligned_calloc(std::size_t align, std::size_t n, std::size_t size, handle a) {
    if ((align & (align - 1)) || (size && n > static_cast<std::size_t>(-1) / size)) return nullptr;
    return allocate(align, n * size, a, true);
}
LOOM_OMP_API void* omp_realloc(void* ptr, std::size_t size, handle a, handle free_a) {
    if (!ptr) return omp_alloc(size, a);
    if (size == 0) {
        release(ptr);
        return nullptr;
    }
    (void)free_a;
    void* fresh = allocate(0, size, a, false);
    if (!fresh) return nullptr;
    std::size_t old = (static_cast<header*>(ptr) - 1)->size;
    std::memcpy(fresh, ptr, old < size ? old : size);
    release(ptr);
    return fresh;
}
LOOM_OMP_API void omp_free(void* ptr, handle) { release(ptr); }

// Compiler entry points for the allocate directive and clause.
LOOM_OMP_API void* __kmpc_alloc(kmp_int32, std::size_t size, handle a) { return omp_alloc(size, a); }
LOOM_OMP_API void* __kmpc_aligned_alloc(kmp_int32, std::size_t align, std::size_t size, handle a) {
    return omp_aligned_alloc(align, size, a);
}
LOOM_OMP_API void* __kmpc_calloc(kmp_int32, std::size_t n, std::size_t size, handle a) {
    return omp_calloc(n, size, a);
}
LOOM_OMP_API void* __kmpc_realloc(kmp_int32, void* ptr, std::size_t size, handle a, handle fa) {
    return omp_realloc(ptr, size, a, fa);
}
LOOM_OMP_API void __kmpc_free(kmp_int32, void* ptr, handle a) { omp_free(ptr, a); }
LOOM_OMP_API handle __kmpc_init_allocator(kmp_int32, handle ms, int n, const trait* t) {
    return omp_init_allocator(ms, n, t);
}
LOOM_OMP_API void __kmpc_destroy_allocator(kmp_int32, handle a) { omp_destroy_allocator(a); }
LOOM_OMP_API void __kmpc_set_default_allocator(kmp_int32, handle a) { omp_set_default_allocator(a); }
LOOM_OMP_API handle __kmpc_get_default_allocator(kmp_int32) { return omp_get_default_allocator(); }
