// The libomp (kmpc) binary interface that clang emits calls to: integer types,
// the source-location record, schedule kinds and the microtask signature.
// Values are ABI facts of LLVM's libomp 19 (openmp/runtime/src/kmp.h); see docs/omp.md.
#pragma once

#include <cstddef>
#include <cstdint>

#define LOOM_OMP_API extern "C" __attribute__((visibility("default")))

namespace loom::omp {

using kmp_int32 = std::int32_t;
using kmp_uint32 = std::uint32_t;
using kmp_int64 = std::int64_t;
using kmp_uint64 = std::uint64_t;

/// Source location passed by the compiler to every entry point.
struct ident_t {
    kmp_int32 reserved_1;
    kmp_int32 flags;
    kmp_int32 reserved_2;
    kmp_int32 reserved_3;
    const char* psource;  // ";file;function;line;column;;"
};

// ident_t::flags bits.
inline constexpr kmp_int32 ident_atomic_reduce = 0x10;  // the reduction may use atomics
inline constexpr kmp_int32 ident_barrier_expl = 0x20;
inline constexpr kmp_int32 ident_barrier_impl = 0x40;

/// Name storage of a critical section / reduction lock: 32 bytes zero-initialised.
using kmp_critical_name = kmp_int32[8];

/// Outlined parallel region body: (global tid, bound tid, shared variables...).
using kmpc_micro = void (*)(kmp_int32* gtid, kmp_int32* btid, ...);

/// Schedule kinds of __kmpc_for_static_init_* and __kmpc_dispatch_init_*.
enum sched_type : kmp_int32 {
    sch_lower = 32,
    sch_static_chunked = 33,
    sch_static = 34,
    sch_dynamic_chunked = 35,
    sch_guided_chunked = 36,
    sch_runtime = 37,
    sch_auto = 38,
    sch_trapezoidal = 39,
    sch_static_greedy = 40,
    sch_static_balanced = 41,
    sch_guided_iterative_chunked = 42,
    sch_guided_analytical_chunked = 43,
    sch_static_steal = 44,
    sch_static_balanced_chunked = 45,
    sch_guided_simd = 46,
    sch_runtime_simd = 47,
    sch_upper = 48,
    ord_lower = 64,  // ordered kinds: unordered kind + 32
    ord_static_chunked = 65,
    ord_static = 66,
    ord_dynamic_chunked = 67,
    ord_guided_chunked = 68,
    ord_runtime = 69,
    ord_auto = 70,
    ord_trapezoidal = 71,
    ord_upper = 72,
    distribute_static_chunked = 91,
    distribute_static = 92,
    nm_lower = 160,  // "nomerge" kinds: unordered kind + 128
    nm_upper = 200,
};
inline constexpr kmp_int32 sch_modifier_monotonic = 1 << 29;
inline constexpr kmp_int32 sch_modifier_nonmonotonic = 1 << 30;

/// A schedule argument's unordered base kind: the monotonic / nonmonotonic modifier
/// bits dropped, and the "nomerge" (+128) and ordered (+32) ranges mapped back onto
/// sch_lower..sch_upper; `ordered` (if given) says whether it was an ordered kind.
inline constexpr int base_schedule(kmp_int32 schedule, bool* ordered = nullptr) noexcept {
    int s = schedule & ~(sch_modifier_monotonic | sch_modifier_nonmonotonic);
    if (s >= nm_lower && s < nm_upper) s -= nm_lower - sch_lower;
    const bool ord = s >= ord_lower && s < ord_upper;
    if (ord) s -= ord_lower - sch_lower;
    if (ordered) *ordered = ord;
    return s;
}

// Cancellation kinds of __kmpc_cancel / __kmpc_cancellationpoint.
enum cancel_kind : kmp_int32 {
    cancel_noreq = 0,
    cancel_parallel = 1,
    cancel_loop = 2,
    cancel_sections = 3,
    cancel_taskgroup = 4,
};

// omp_sched_t values (omp.h).
inline constexpr int omp_sched_static = 1;
inline constexpr int omp_sched_dynamic = 2;
inline constexpr int omp_sched_guided = 3;
inline constexpr int omp_sched_auto = 4;
inline constexpr unsigned omp_sched_monotonic = 0x80000000u;

// omp_proc_bind_t values.
inline constexpr int proc_bind_false = 0;
inline constexpr int proc_bind_true = 1;
inline constexpr int proc_bind_master = 2;  // "primary"
inline constexpr int proc_bind_close = 3;
inline constexpr int proc_bind_spread = 4;

}  // namespace loom::omp
