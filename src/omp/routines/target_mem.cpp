// Device memory routines (OpenMP 4.5, 3.6) with the host as the only device, as
// libgomp behaves when no offload device is present (GCC 12 libgomp/target.c): the
// initial device is device number omp_get_num_devices() (0 here) and its memory is the
// host's, so allocation is malloc, copies are memcpy, everything is "present", and
// associating host memory with itself is refused with EINVAL. A device number that
// names no device makes allocation return NULL and the other routines EINVAL (or 0 for
// omp_target_is_present). omp_initial_device (-1, OpenMP 5.1) is the host too, as in
// later libgomp and in LLVM's libomptarget.
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "abi.hpp"

extern "C" int omp_get_num_devices();

namespace {

constexpr int omp_initial_device = -1;

bool is_host(int device) { return device == omp_get_num_devices() || device == omp_initial_device; }

// One dimension of omp_target_memcpy_rect, recursively: copies volume[0] rows of the
// inner dimensions (libgomp's omp_target_memcpy_rect_worker on the host).
void copy_rect(char* dst, const char* src, std::size_t element_size, int num_dims,
               const std::size_t* volume, const std::size_t* dst_offsets,
               const std::size_t* src_offsets, const std::size_t* dst_dims,
               const std::size_t* src_dims) {
    if (num_dims == 1) {
        std::memcpy(dst + dst_offsets[0] * element_size, src + src_offsets[0] * element_size,
                    volume[0] * element_size);
        return;
    }
    std::size_t dst_slice = element_size, src_slice = element_size;
    for (int i = 1; i < num_dims; ++i) {
        dst_slice *= dst_dims[i];
        src_slice *= src_dims[i];
    }
    for (std::size_t j = 0; j < volume[0]; ++j)
        copy_rect(dst + (dst_offsets[0] + j) * dst_slice, src + (src_offsets[0] + j) * src_slice,
                  element_size, num_dims - 1, volume + 1, dst_offsets + 1, src_offsets + 1,
                  dst_dims + 1, src_dims + 1);
}

}  // namespace

LOOM_OMP_API void* omp_target_alloc(std::size_t size, int device) {
    return is_host(device) ? std::malloc(size) : nullptr;
}

LOOM_OMP_API void omp_target_free(void* ptr, int device) {
    if (ptr && is_host(device)) std::free(ptr);
}

LOOM_OMP_API int omp_target_is_present(const void* ptr, int device) {
    return !ptr || is_host(device) ? 1 : 0;
}

LOOM_OMP_API int omp_target_memcpy(void* dst, const void* src, std::size_t length,
                                   std::size_t dst_offset, std::size_t src_offset,
                                   int dst_device, int src_device) {
    if (!is_host(dst_device) || !is_host(src_device)) return EINVAL;
    std::memcpy(static_cast<char*>(dst) + dst_offset, static_cast<const char*>(src) + src_offset,
                length);
    return 0;
}

// With both pointers NULL it reports the number of dimensions supported (any).
LOOM_OMP_API int omp_target_memcpy_rect(void* dst, const void* src, std::size_t element_size,
                                        int num_dims, const std::size_t* volume,
                                        const std::size_t* dst_offsets,
                                        const std::size_t* src_offsets,
                                        const std::size_t* dst_dims, const std::size_t* src_dims,
                                        int dst_device, int src_device) {
    if (!dst && !src) return INT_MAX;
    if (!dst || !src || num_dims < 1) return EINVAL;
    if (!is_host(dst_device) || !is_host(src_device)) return EINVAL;
    copy_rect(static_cast<char*>(dst), static_cast<const char*>(src), element_size, num_dims,
              volume, dst_offsets, src_offsets, dst_dims, src_dims);
    return 0;
}

LOOM_OMP_API int omp_target_associate_ptr(const void*, const void*, std::size_t, std::size_t, int) {
    return EINVAL;
}

LOOM_OMP_API int omp_target_disassociate_ptr(const void*, int) { return EINVAL; }
