// GOMP sections (libgomp sections.c): section numbers 1..count handed out one at a time
// by a dynamic dispatch loop with chunk 1, the same loop clang's code uses for dynamic
// schedules; 0 means "no section left".
#include "gomp/gomp_abi.hpp"
#include "gomp/parallel_start.hpp"
#include "parallel/thread.hpp"
#include "sync/barrier.hpp"
#include "worksharing/cancel.hpp"
#include "worksharing/dispatch_loop.hpp"

namespace loom::omp::gomp {
namespace {

void begin_sections(unsigned count) {
    // count 0 begins an empty loop (lb 1 > ub 0), so every member still enters it.
    const auto ub = static_cast<kmp_int32>(count > 0x7fffffffu ? 0x7fffffffu : count);
    implicit_task* it = current_task();
    dispatch_init<kmp_int32, kmp_int32>(it, sch_dynamic_chunked, 1, ub, 1, 1);
    // No sections of a chunk held back yet (next_section).
    it->loop.cur_iter = 0;
    it->loop.chunk_end = 0;
}

// A team of one gets the whole loop as one chunk, whatever the chunk size (dispatch.cpp
// next_chunk), but a section is one iteration: the rest of a chunk is handed out one
// section per call, its normalised bounds kept in the loop's cur_iter / chunk_end (which
// only ordered loops use otherwise).
unsigned next_section() {
    loop_state& L = current_task()->loop;
    if (L.cur_iter + 1 < L.chunk_end) return static_cast<unsigned>(++L.cur_iter + 1);
    kmp_int32 last = 0, lb = 0, ub = 0, st = 1;
    if (!dispatch_next<kmp_int32, kmp_int32>(&last, &lb, &ub, &st)) return 0;
    L.cur_iter = static_cast<std::uint64_t>(lb - 1);
    L.chunk_end = static_cast<std::uint64_t>(ub);
    return static_cast<unsigned>(lb);
}

// GOMP_parallel_sections: the work share exists before the body runs (sections.c
// gomp_sections_init in the master); the body starts with GOMP_sections_next.
struct parallel_sections {
    body_fn fn;
    void* data;
    unsigned count;
};

void begin_member_sections(void* p) { begin_sections(static_cast<parallel_sections*>(p)->count); }

void parallel_sections_body(void* p) {
    begin_member_sections(p);
    const auto* ps = static_cast<const parallel_sections*>(p);
    ps->fn(ps->data);
}

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

LOOM_OMP_API unsigned GOMP_sections_start(unsigned count) {
    begin_sections(count);
    return next_section();
}

// sections.c (5.0): task reductions and `mem` as GOMP_loop_start.
LOOM_OMP_API unsigned GOMP_sections2_start(unsigned count, std::uintptr_t* reductions,
                                           void** mem) {
    workshare_extras(reductions, mem);
    return GOMP_sections_start(count);
}

LOOM_OMP_API unsigned GOMP_sections_next() { return next_section(); }

LOOM_OMP_API void GOMP_parallel_sections(body_fn fn, void* data, unsigned num_threads,
                                         unsigned count, unsigned flags) {
    parallel_sections ps{fn, data, count};
    fork(parallel_sections_body, &ps, num_threads, flags);
}

LOOM_OMP_API void GOMP_parallel_sections_start(body_fn fn, void* data, unsigned num_threads,
                                               unsigned count) {
    split_start(fn, data, num_threads, 0, begin_member_sections,
                new parallel_sections{fn, data, count},
                [](void* p) { delete static_cast<parallel_sections*>(p); });
}

LOOM_OMP_API void GOMP_sections_end() {
    workshare_leave();
    team_barrier(current_task());
}
LOOM_OMP_API void GOMP_sections_end_nowait() { workshare_leave(); }

// True when the enclosing parallel region was cancelled.
LOOM_OMP_API bool GOMP_sections_end_cancel() {
    workshare_leave();
    return cancel_barrier(current_task());
}
