// ABI facts of gcc's explicit-task entry points (GOMP_task, GOMP_taskloop{,_ull},
// GOMP_taskwait_depend, task reductions): flag bits, the depend array layouts and the
// task-reduction descriptor. Values from libgomp of GCC 12 (gomp-constants.h,
// task.c, taskloop.c).
#pragma once

#include <cstddef>
#include <cstdint>

namespace loom::omp::gomp {

// ---- GOMP_task / GOMP_taskloop `flags` (gomp-constants.h GOMP_TASK_FLAG_*) -------------
inline constexpr unsigned task_untied = 1u << 0;
inline constexpr unsigned task_final = 1u << 1;
inline constexpr unsigned task_mergeable = 1u << 2;
inline constexpr unsigned task_depend = 1u << 3;
inline constexpr unsigned task_priority = 1u << 4;
inline constexpr unsigned task_up = 1u << 8;         // taskloop_ull: the loop counts up
inline constexpr unsigned task_grainsize = 1u << 9;  // taskloop: num_tasks is a grainsize
inline constexpr unsigned task_if = 1u << 10;        // taskloop: if clause true (or absent)
inline constexpr unsigned task_nogroup = 1u << 11;
inline constexpr unsigned task_reduction = 1u << 12;
inline constexpr unsigned task_detach = 1u << 13;
inline constexpr unsigned task_strict = 1u << 14;    // grainsize(strict:) / num_tasks(strict:)

// ---- depend arrays (task.c, comment above GOMP_task; gomp_task_handle_depend) -----------
// Old layout, depend[0] != 0:
//   [0] total n, [1] out/inout count, then n addresses: the out/inout ones first.
// 5.0 layout, depend[0] == 0:
//   [1] total n, [2] out/inout count, [3] mutexinoutset count, [4] in count, then the
//   addresses in that order, then n - (out + mutexinoutset + in) pointers to
//   omp_depend_t objects (depobj, and gcc's lowering of inoutset): {address, kind}.
// A null address among the out entries is omp_all_memory (task.c).
inline constexpr std::size_t depend_old_header = 2;
inline constexpr std::size_t depend_new_header = 5;

/// Kinds stored in an omp_depend_t object (gomp-constants.h GOMP_DEPEND_*).
enum depobj_kind : std::uintptr_t {
    depobj_in = 1,
    depobj_out = 2,
    depobj_inout = 3,
    depobj_mutexinoutset = 4,
    depobj_inoutset = 5,
};

// ---- task reduction descriptors (task.c, comment above GOMP_taskgroup_reduction_register)
//   [0] item count, [1] bytes of one thread's chunk, [2] chunk alignment (the runtime
//   replaces it with the address of the chunks: nthreads of them, zeroed), [3] allocator
//   (-1: malloc), [4] next descriptor of the same registration (0 at the end; the
//   runtime links the last one to the reductions registered before), [5] and [6]
//   internal (loom: [5] marks the first descriptor of a registration, [6] the end of the
//   chunks), then per item {address of the original, offset in the chunk, internal}.
// Items are sorted by offset. The compiler initialises a thread's chunk lazily (a flag
// in the chunk) and combines chunks 0..nthreads-1 itself after the construct.
inline constexpr std::size_t red_count = 0;
inline constexpr std::size_t red_chunk = 1;
inline constexpr std::size_t red_base = 2;  // in: alignment; out: the chunks
inline constexpr std::size_t red_next = 4;
inline constexpr std::size_t red_head = 5;
inline constexpr std::size_t red_end = 6;
inline constexpr std::size_t red_items = 7;
inline constexpr std::size_t red_item_words = 3;

}  // namespace loom::omp::gomp
