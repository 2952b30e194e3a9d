// Host fallbacks of gcc's target constructs (libgomp target.c with no offload device):
// the region runs on the host (device = initial device) as the initial task of its own
// contention group, on the encountering thread or, with nowait, as a deferred task;
// data mapping and updates have nothing to copy (but order tasks by their depend
// clauses), and offload image registration has nothing to register.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "env/icv.hpp"
#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

// The explicit-task entry points a target task goes through (gomp/task.cpp).
LOOM_OMP_API void GOMP_taskwait_depend(void** depend);
LOOM_OMP_API void GOMP_task(loom::omp::gomp::body_fn fn, void* data,
                            void (*cpyfn)(void*, void*), long arg_size, long arg_align,
                            bool if_clause, unsigned flags, void** depend, int priority,
                            void* detach);

namespace loom::omp::gomp {
namespace {

// gomp-constants.h: GOMP_target_ext's `args` entries and flags, map kinds.
constexpr std::intptr_t target_arg_device_mask = (1 << 7) - 1;
constexpr std::intptr_t target_arg_device_all = 0;
constexpr std::intptr_t target_arg_subsequent_param = 1 << 7;
constexpr std::intptr_t target_arg_id_mask = ((1 << 8) - 1) << 8;
constexpr std::intptr_t target_arg_thread_limit = 2 << 8;
constexpr int target_arg_value_shift = 16;
constexpr unsigned target_flag_nowait = 1u << 0;
constexpr unsigned short map_firstprivate = 0x0c;  // GOMP_MAP_FIRSTPRIVATE
constexpr unsigned task_flag_depend = 1u << 3;     // GOMP_TASK_FLAG_DEPEND

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

// Runs a target region's body on the host as the initial task of a new contention group
// on this thread (target.c gomp_target_fallback): not in a parallel region (level 0, one
// team of one thread), with the device's initial ICVs (the environment's, not the
// encountering task's: what the body sets ends with it) and the clause's thread limit.
void run_on_host(body_fn fn, void** hostaddrs, int thread_limit) {
    thread_state* th = this_thread();
    implicit_task* encountering = th->current;
    implicit_task root;
    root.target_root = true;
    root.icv = globals().initial;
    if (thread_limit > 0) root.icv.thread_limit = thread_limit;
    // The worker it runs on is the encountering task's (a team member holds its claim).
    root.holds_claim = encountering->holds_claim;
    root.worker = encountering->worker;
    th->current = &root;
    fn(hostaddrs);
    if (g_task_hooks.drain) g_task_hooks.drain(&root, true);  // its tasks end with it
    this_thread()->current = encountering;
}

// firstprivate variables (GOMP_MAP_FIRSTPRIVATE) are the target region's own copies,
// made when the region starts (target.c copy_firstprivate_data): their size and
// alignment in one block, and the copy, which points hostaddrs at it.
struct private_block {
    std::size_t align = 0;
    std::size_t size = 0;
};

private_block private_block_of(std::size_t mapnum, const std::size_t* sizes,
                               const unsigned short* kinds) {
    private_block b;
    for (std::size_t i = 0; i < mapnum; ++i) {
        if ((kinds[i] & 0xff) != map_firstprivate) continue;
        const std::size_t align = std::size_t{1} << (kinds[i] >> 8);
        b.align = std::max(b.align, align);
        b.size = ((b.size + align - 1) & ~(align - 1)) + sizes[i];
    }
    return b;
}

// Copies the firstprivate variables into `dst` (aligned as private_block_of says) and
// returns, per map entry, its offset there (npos: the entry stays the host's).
constexpr std::size_t npos = ~std::size_t{0};
void copy_private(char* dst, std::size_t mapnum, void** hostaddrs, const std::size_t* sizes,
                  const unsigned short* kinds, std::size_t* offsets) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < mapnum; ++i) {
        offsets[i] = npos;
        if ((kinds[i] & 0xff) != map_firstprivate || !hostaddrs[i]) continue;
        const std::size_t align = std::size_t{1} << (kinds[i] >> 8);
        at = (at + align - 1) & ~(align - 1);
        std::memcpy(dst + at, hostaddrs[i], sizes[i]);
        offsets[i] = at;
        at += sizes[i];
    }
}

// The host fallback of an undeferred target region: private copies on this stack.
void run_target_here(body_fn fn, std::size_t mapnum, void** hostaddrs, const std::size_t* sizes,
                     const unsigned short* kinds, int thread_limit) {
    const private_block b = private_block_of(mapnum, sizes, kinds);
    if (b.align == 0) {
        run_on_host(fn, hostaddrs, thread_limit);
        return;
    }
    std::vector<unsigned char> storage(b.size + b.align - 1);
    char* base = reinterpret_cast<char*>(storage.data());
    base += (b.align - reinterpret_cast<std::uintptr_t>(base) % b.align) % b.align;
    std::vector<std::size_t> offsets(mapnum);
    copy_private(base, mapnum, hostaddrs, sizes, kinds, offsets.data());
    for (std::size_t i = 0; i < mapnum; ++i)
        if (offsets[i] != npos) hostaddrs[i] = base + offsets[i];
    run_on_host(fn, hostaddrs, thread_limit);
}

// A target region with nowait: a deferred task that runs the region on the host
// (task.c gomp_create_target_task). Its argument block, copied by GOMP_task:
//   [ header ][ hostaddrs: mapnum pointers ][ offsets: mapnum ][ private copies ]
// The private copies are the task's own (made when the task is created, as libgomp
// does); the task points its copy of hostaddrs at them when it runs.
struct target_task_header {
    body_fn fn;
    std::size_t mapnum;
    std::size_t private_at;  // offset of the private copies in the block
    int thread_limit;
};

void run_target_task(void* arg) {
    auto* h = static_cast<target_task_header*>(arg);
    auto* addrs = reinterpret_cast<void**>(h + 1);
    auto* offsets = reinterpret_cast<std::size_t*>(addrs + h->mapnum);
    char* base = static_cast<char*>(arg) + h->private_at;
    for (std::size_t i = 0; i < h->mapnum; ++i)
        if (offsets[i] != npos) addrs[i] = base + offsets[i];
    run_on_host(h->fn, addrs, h->thread_limit);
}

void launch_target_task(body_fn fn, std::size_t mapnum, void** hostaddrs,
                        const std::size_t* sizes, const unsigned short* kinds, void** depend,
                        int thread_limit) {
    const private_block b = private_block_of(mapnum, sizes, kinds);
    const std::size_t align = std::max(alignof(std::max_align_t), b.align);
    const std::size_t head = sizeof(target_task_header) + mapnum * (sizeof(void*) + sizeof(std::size_t));
    const std::size_t private_at = (head + align - 1) & ~(align - 1);
    const std::size_t size = private_at + b.size;
    // The block is built in aligned storage: GOMP_task copies it to an address aligned
    // to `align`, so the copies keep their alignment.
    auto* block = static_cast<char*>(::operator new(size, std::align_val_t{align}));
    auto* h = ::new (block) target_task_header{fn, mapnum, private_at, thread_limit};
    auto* addrs = reinterpret_cast<void**>(h + 1);
    auto* offsets = reinterpret_cast<std::size_t*>(addrs + mapnum);
    if (mapnum) std::memcpy(addrs, hostaddrs, mapnum * sizeof(void*));
    copy_private(block + private_at, mapnum, hostaddrs, sizes, kinds, offsets);
    GOMP_task(&run_target_task, block, nullptr, static_cast<long>(size), static_cast<long>(align),
              true, depend ? task_flag_depend : 0u, depend, 0, nullptr);
    ::operator delete(block, std::align_val_t{align});
}

void nothing(void*) {}

// target update / enter data / exit data on the host have nothing to copy; with depend
// they still order the tasks around them (target.c GOMP_target_update_ext): with nowait a
// task with those dependences and no work, which later tasks wait for as for any other;
// without, the encountering task waits for the dependences.
void data_construct(unsigned flags, void** depend) {
    if (!depend) return;
    if (flags & target_flag_nowait) {
        GOMP_task(&nothing, nullptr, nullptr, 0, 1, true, task_flag_depend, depend, 0, nullptr);
    } else {
        GOMP_taskwait_depend(depend);
    }
}

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// GOMP 4.0: void GOMP_target (int, void (*) (void *), const void *, size_t, void **,
// size_t *, unsigned char *). Its map kinds are the old one-byte ones (no firstprivate).
LOOM_OMP_API void GOMP_target(int, body_fn fn, const void*, std::size_t, void** hostaddrs,
                              std::size_t*, unsigned char*) {
    run_on_host(fn, hostaddrs, 0);
}

// GOMP 4.5 (target.c GOMP_target_ext): nowait makes the region a deferred target task
// ordered by its dependences; without, the encountering task waits for the dependences
// and runs the region itself.
LOOM_OMP_API void GOMP_target_ext(int, body_fn fn, std::size_t mapnum, void** hostaddrs,
                                  std::size_t* sizes, unsigned short* kinds, unsigned flags,
                                  void** depend, void** args) {
    const int thread_limit = thread_limit_arg(args);
    if (flags & target_flag_nowait) {
        launch_target_task(fn, mapnum, hostaddrs, sizes, kinds, depend, thread_limit);
        return;
    }
    if (depend) GOMP_taskwait_depend(depend);
    run_target_here(fn, mapnum, hostaddrs, sizes, kinds, thread_limit);
}

LOOM_OMP_API void GOMP_target_data(int, const void*, std::size_t, void**, std::size_t*,
                                   unsigned char*) {}
LOOM_OMP_API void GOMP_target_data_ext(int, std::size_t, void**, std::size_t*, unsigned short*) {}
LOOM_OMP_API void GOMP_target_end_data() {}
LOOM_OMP_API void GOMP_target_update(int, const void*, std::size_t, void**, std::size_t*,
                                     unsigned char*) {}
LOOM_OMP_API void GOMP_target_update_ext(int, std::size_t, void**, std::size_t*, unsigned short*,
                                         unsigned flags, void** depend) {
    data_construct(flags, depend);
}
LOOM_OMP_API void GOMP_target_enter_exit_data(int, std::size_t, void**, std::size_t*,
                                              unsigned short*, unsigned flags, void** depend) {
    data_construct(flags, depend);
}

// Offload images of other devices: none is used, nothing to register (libgomp registers
// them for its plugins only).
LOOM_OMP_API void GOMP_offload_register(const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_register_ver(unsigned, const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_unregister(const void*, int, const void*) {}
LOOM_OMP_API void GOMP_offload_unregister_ver(unsigned, const void*, int, const void*) {}
