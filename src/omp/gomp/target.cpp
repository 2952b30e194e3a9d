// Host fallbacks of gcc's target constructs (libgomp target.c with no offload device):
// the region runs on the encountering thread (device = initial device), data mapping and
// updates have nothing to copy, and offload image registration has nothing to register.
#include <climits>
#include <cstddef>
#include <cstdint>

#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"

// The dependence wait of a target task (the tasking part of the GOMP layer, task.c).
LOOM_OMP_API void GOMP_taskwait_depend(void** depend);

namespace loom::omp::gomp {
namespace {

// gomp-constants.h: GOMP_target_ext's `args` entries and flags.
constexpr std::intptr_t target_arg_device_mask = (1 << 7) - 1;
constexpr std::intptr_t target_arg_device_all = 0;
constexpr std::intptr_t target_arg_subsequent_param = 1 << 7;
constexpr std::intptr_t target_arg_id_mask = ((1 << 8) - 1) << 8;
constexpr std::intptr_t target_arg_thread_limit = 2 << 8;
constexpr int target_arg_value_shift = 16;

// target.c gomp_target_fallback: the thread_limit entry for all devices, if any (0: none).
int thread_limit_arg(void** args) {
    if (!args) return 0;
    while (*args) {
        const auto id = reinterpret_cast<std::intptr_t>(*args++);
        std::intptr_t val;
        if (id & target_arg_subsequent_param) val = reinterpret_cast<std::intptr_t>(*args++);
        else val = id >> target_arg_value_shift;
        if ((id & target_arg_device_mask) != target_arg_device_all) continue;
        if ((id & target_arg_id_mask) != target_arg_thread_limit) continue;
        return val > INT_MAX ? INT_MAX : static_cast<int>(val);
    }
    return 0;
}

// Runs a target region's body on the host with its thread limit (target.c
// gomp_target_fallback), the encountering task's own limit restored after.
void run_on_host(body_fn fn, void** hostaddrs, int thread_limit) {
    implicit_task* it = current_task();
    const int saved = it->icv.thread_limit;
    if (thread_limit > 0) it->icv.thread_limit = thread_limit;
    fn(hostaddrs);
    current_task()->icv.thread_limit = saved;
}

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// GOMP 4.0: void GOMP_target (int, void (*) (void *), const void *, size_t, void **,
// size_t *, unsigned char *).
LOOM_OMP_API void GOMP_target(int, body_fn fn, const void*, std::size_t, void** hostaddrs,
                              std::size_t*, unsigned char*) {
    run_on_host(fn, hostaddrs, 0);
}

// GOMP 4.5: depend waits for the region's dependences first; nowait may run it at once
// (an undeferred target task).
LOOM_OMP_API void GOMP_target_ext(int, body_fn fn, std::size_t, void** hostaddrs, std::size_t*,
                                  unsigned short*, unsigned /*flags*/, void** depend,
                                  void** args) {
    if (depend) GOMP_taskwait_depend(depend);
    run_on_host(fn, hostaddrs, thread_limit_arg(args));
}

LOOM_OMP_API void GOMP_target_data(int, const void*, std::size_t, void**, std::size_t*,
                                   unsigned char*) {}
LOOM_OMP_API void GOMP_target_data_ext(int, std::size_t, void**, std::size_t*, unsigned short*) {}
LOOM_OMP_API void GOMP_target_end_data() {}
LOOM_OMP_API void GOMP_target_update(int, const void*, std::size_t, void**, std::size_t*,
                                     unsigned char*) {}
// With depend, the update is a task whose only work is the copy: on the host there is
// none, and later tasks that depend on it have nothing to wait for.
LOOM_OMP_API void GOMP_target_update_ext(int, std::size_t, void**, std::size_t*, unsigned short*,
                                         unsigned, void**) {}
LOOM_OMP_API void GOMP_target_enter_exit_data(int, std::size_t, void**, std::size_t*,
                                              unsigned short*, unsigned, void**) {}

// Offload images of other devices: none is used, nothing to register (libgomp registers
// them for its plugins only).
LOOM_OMP_API void GOMP_offload_register(const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_register_ver(unsigned, const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_unregister(const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_unregister_ver(unsigned, const void*, int, const void*) {}
