// libomp's kmp_* extensions that programs commonly call: stack size, block time,
// library mode, warnings, memory and affinity masks.
#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "abi.hpp"
#include "env/env.hpp"
#include "env/icv.hpp"
#include "loom/ext/scheduler.hpp"

using namespace loom::omp;

LOOM_OMP_API std::size_t kmp_get_stacksize_s() {
    std::size_t s = globals().stacksize;
    return s ? s : loom::ext::stack_size();
}
LOOM_OMP_API int kmp_get_stacksize() { return static_cast<int>(kmp_get_stacksize_s()); }
// Takes effect when the pool (re)starts.
LOOM_OMP_API void kmp_set_stacksize_s(std::size_t s) {
    if (s) globals().stacksize = clamp_stacksize(s);  // what kmp_get_stacksize_s reports is in force
}
LOOM_OMP_API void kmp_set_stacksize(int s) { if (s > 0) kmp_set_stacksize_s(static_cast<std::size_t>(s)); }

LOOM_OMP_API int kmp_get_blocktime() { return blocktime_ms(); }
LOOM_OMP_API void kmp_set_blocktime(int ms) { set_blocktime_ms(ms); }

// libomp's numbering: 1 serial, 2 turnaround, 3 throughput.
LOOM_OMP_API int kmp_get_library() {
    int l = globals().library;
    return l == 0 ? 1 : l == 2 ? 2 : 3;
}
LOOM_OMP_API void kmp_set_library(int mode) {
    if (mode >= 1 && mode <= 3) globals().library = mode == 1 ? 0 : mode == 2 ? 2 : 1;
}
LOOM_OMP_API void kmp_set_library_serial() { globals().library = 0; }
LOOM_OMP_API void kmp_set_library_throughput() { globals().library = 1; }
LOOM_OMP_API void kmp_set_library_turnaround() { globals().library = 2; }
LOOM_OMP_API void kmp_set_defaults(const char* s) { apply_setting(s); }
LOOM_OMP_API void kmp_set_disp_num_buffers(int) {}

LOOM_OMP_API void kmp_set_warnings_on() { set_warnings(true); }
LOOM_OMP_API void kmp_set_warnings_off() { set_warnings(false); }

LOOM_OMP_API void* kmp_malloc(std::size_t size) { return std::malloc(size); }
// As libomp: null (errno EINVAL) for an alignment that is not a power of two, asked of
// no allocator (a sanitizer's posix_memalign reports such a call as an error).
LOOM_OMP_API void* kmp_aligned_malloc(std::size_t size, std::size_t align) {
    if ((align & (align - 1)) != 0) {
        errno = EINVAL;
        return nullptr;
    }
    void* p = nullptr;
    if (align < sizeof(void*)) align = sizeof(void*);
    return posix_memalign(&p, align, size) == 0 ? p : nullptr;
}
LOOM_OMP_API void* kmp_calloc(std::size_t n, std::size_t size) { return std::calloc(n, size); }
LOOM_OMP_API void* kmp_realloc(void* p, std::size_t size) { return std::realloc(p, size); }
LOOM_OMP_API void kmp_free(void* p) { std::free(p); }

// Affinity masks are cpu_set_t objects.
LOOM_OMP_API int kmp_get_affinity_max_proc() { return CPU_SETSIZE; }
LOOM_OMP_API void kmp_create_affinity_mask(void** mask) {
    auto* s = new cpu_set_t;
    CPU_ZERO(s);
    *mask = s;
}
LOOM_OMP_API void kmp_destroy_affinity_mask(void** mask) {
    delete static_cast<cpu_set_t*>(*mask);
    *mask = nullptr;
}
LOOM_OMP_API int kmp_set_affinity_mask_proc(int proc, void** mask) {
    if (!mask || !*mask || proc < 0 || proc >= CPU_SETSIZE) return -1;
    CPU_SET(proc, static_cast<cpu_set_t*>(*mask));
    return 0;
}
LOOM_OMP_API int kmp_unset_affinity_mask_proc(int proc, void** mask) {
    if (!mask || !*mask || proc < 0 || proc >= CPU_SETSIZE) return -1;
    CPU_CLR(proc, static_cast<cpu_set_t*>(*mask));
    return 0;
}
LOOM_OMP_API int kmp_get_affinity_mask_proc(int proc, void** mask) {
    if (!mask || !*mask || proc < 0 || proc >= CPU_SETSIZE) return -1;
    return CPU_ISSET(proc, static_cast<cpu_set_t*>(*mask)) ? 1 : 0;
}
LOOM_OMP_API int kmp_set_affinity(void** mask) {
    if (!mask || !*mask) return -1;
    return sched_setaffinity(0, sizeof(cpu_set_t), static_cast<cpu_set_t*>(*mask)) == 0 ? 0 : -1;
}
LOOM_OMP_API int kmp_get_affinity(void** mask) {
    if (!mask || !*mask) return -1;
    return sched_getaffinity(0, sizeof(cpu_set_t), static_cast<cpu_set_t*>(*mask)) == 0 ? 0 : -1;
}
