// gcc's taskgroups and task reductions: GOMP_taskgroup_start/end on loom's taskgroups
// (tasking/taskgroup.cpp), and the task-reduction entry points over gcc's descriptor
// arrays (task_abi.hpp). With gcc the compiler owns the reduction arithmetic: the
// runtime only gives every thread of the team a zeroed chunk (nthreads of them per
// descriptor), maps an original list item to the running thread's chunk
// (GOMP_task_reduction_remap), and frees the chunks when asked; the compiler initialises
// the chunks lazily and combines chunks 0..nthreads-1 after the construct (task.c).
//
// A chunk is the one of the team member the running context acts as
// (omp_get_thread_num): loom runs the team's tasks on its members' workers (tied tasks
// resume where they started), so two tasks never use one chunk at the same time, the
// same argument as libgomp's. The one exception, a worker outside the team that runs a
// task as a stand-in of its creator after holding it for 0.1 s (tasking/task.cpp
// runner_for), would share the creator's chunk: registering gcc reductions turns it
// off for the team (task_team::members_only).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gomp/construct_shares.hpp"
#include "gomp/reductions.hpp"
#include "gomp/task.hpp"
#include "gomp/task_abi.hpp"
#include "parallel/team.hpp"
#include "routines/routines.hpp"
#include "sync/barrier.hpp"
#include "tasking/task.hpp"

using loom::omp::ident_t;
using loom::omp::kmp_int32;

#include "ompt/events.hpp"

LOOM_OMP_API int omp_get_num_threads();
LOOM_OMP_API int omp_get_thread_num();
LOOM_OMP_API int omp_get_max_threads();

namespace loom::omp::gomp {

namespace {

using namespace tasking;
using desc = std::uintptr_t;

// ---- finding the reductions that bind to the running task ------------------------------

/// The descriptors registered in `g` or the taskgroups around it: a taskgroup's
/// registration links to the ones registered before (red_next), so the innermost one
/// found carries them all.
desc* registered_in(tgroup* g) noexcept {
    for (; g; g = g->parent)
        if (g->gomp_red) return g->gomp_red;
    return nullptr;
}

/// libgomp's task->taskgroup->reductions: the running task's own taskgroups, then the
/// taskgroup each ancestor task was created in and the ones around that.
desc* visible_reductions(const here& h) noexcept {
    if (desc* d = registered_in(current_group(h))) return d;
    if (!h.rc->current) return nullptr;
    for (ext::task* r = record_of(h.rc->current);;) {
        if (desc* d = registered_in(rel_group(r))) return d;
        if (!parent_is_task(r)) return nullptr;
        r = record_of(reinterpret_cast<tdata*>(parent_node(r)));
    }
}

// ---- registration --------------------------------------------------------------------

/// The last descriptor of the registration that starts at `data`.
desc* last_of(desc* data) noexcept {
    desc* d = data;
    while (d[red_next] != 0) d = reinterpret_cast<desc*>(d[red_next]);
    return d;
}

/// Gives each descriptor of the registration its chunks: new zeroed ones for
/// `nthreads` threads, or (`orig`: worksharing members after the first) the first
/// member's; then links the registration to the reductions registered before (`old`).
void register_chunks(desc* data, desc* old, desc* orig, unsigned nthreads) {
    desc* last = last_of(data);
    for (desc* d = data;; d = reinterpret_cast<desc*>(d[red_next])) {
        if (orig) {
            d[red_base] = orig[red_base];
            d[red_end] = orig[red_end];
            orig = reinterpret_cast<desc*>(orig[red_next]);
        } else {
            const std::size_t align = d[red_base] ? d[red_base] : alignof(std::max_align_t);
            std::size_t size = d[red_chunk] * nthreads;
            size = (size + align - 1) / align * align;  // aligned_alloc wants a multiple
            void* p = std::aligned_alloc(align, size ? size : align);
            std::memset(p, 0, size);
            d[red_base] = reinterpret_cast<desc>(p);
            d[red_end] = d[red_base] + d[red_chunk] * nthreads;
        }
        d[red_head] = d == data ? 1 : 0;
        if (d == last) break;
    }
    last[red_next] = reinterpret_cast<desc>(old);
}

/// Chunks indexed by thread number: the team's tasks run on its members only.
void no_standins(const here& h) {
    if (team* tm = h.rc->tm) tm->tasks.members_only.store(true, std::memory_order_relaxed);
}

/// The taskgroup `data` is registered in: the running task's innermost one.
void attach(const here& h, desc* data) {
    tgroup* g = current_group(h);
    if (!g) {
        open_group(h);
        g = current_group(h);
    }
    g->gomp_red = data;
    no_standins(h);
}

// ---- remapping -----------------------------------------------------------------------

[[noreturn]] void no_match(void* p) {
    // task.c GOMP_task_reduction_remap: gomp_fatal with this message.
    std::fprintf(stderr,
                 "loom: couldn't find matching task_reduction or reduction with task modifier for %p\n",
                 p);
    std::abort();
}

inline char* chunk_of(const desc* d, unsigned id) noexcept {
    return reinterpret_cast<char*>(d[red_base] + id * d[red_chunk]);
}

/// ptrs[i] as an original list item: its private copy, and the original.
bool remap_original(desc* data, unsigned id, void*& p, void** orig) {
    const auto a = reinterpret_cast<desc>(p);
    for (desc* d = data; d; d = reinterpret_cast<desc*>(d[red_next])) {
        for (desc j = 0; j < d[red_count]; ++j) {
            const desc* item = d + red_items + j * red_item_words;
            if (item[0] != a) continue;
            if (orig) *orig = p;
            p = chunk_of(d, id) + item[1];
            return true;
        }
    }
    return false;
}

/// ptrs[i] as an address inside some thread's chunk (a private copy remapped before,
/// handed down to a task): the same offset in the running thread's chunk.
bool remap_private(desc* data, unsigned id, void*& p, void** orig) {
    const auto a = reinterpret_cast<desc>(p);
    for (desc* d = data; d; d = reinterpret_cast<desc*>(d[red_next])) {
        if (a < d[red_base] || a >= d[red_end]) continue;
        const desc off = (a - d[red_base]) % d[red_chunk];
        if (orig) {
            *orig = nullptr;
            for (desc j = 0; j < d[red_count]; ++j) {
                const desc* item = d + red_items + j * red_item_words;
                if (item[1] == off) *orig = reinterpret_cast<void*>(item[0]);
            }
            if (!*orig) no_match(p);
        }
        p = chunk_of(d, id) + off;
        return true;
    }
    return false;
}

// ---- worksharing constructs with task reductions -----------------------------------------
// The first member to reach the construct registers and publishes its descriptors
// (construct_shares.hpp); the others take its chunks. An entry is named by the chunks,
// which every member's descriptors point to once registered.

// ---- parallel reduction(task, ...) -----------------------------------------------------

struct parallel_reduction {
    body_fn fn;
    void* data;
    desc* reductions;
    int team = 1;
};

// Every member runs the region in a taskgroup holding the reductions (libgomp gives the
// implicit tasks one taskgroup with them: parallel.c, team.c), so tasks created in the
// region find them and the member's own tasks are done before it leaves.
void parallel_reduction_body(void* p) {
    auto* r = static_cast<parallel_reduction*>(p);
    here h = current_here();
    open_group(h);
    current_group(h)->gomp_red = r->reductions;
    no_standins(h);
    if (omp_get_thread_num() == 0) r->team = omp_get_num_threads();
    r->fn(r->data);
    close_group(current_here());
}

}  // namespace

void workshare_task_reduction_register(std::uintptr_t* reductions, bool first,
                                       std::uint32_t construct) {
    here h = current_here();
    desc* old = visible_reductions(h);
    // task.c gomp_workshare_taskgroup_start: the construct is a taskgroup of its own.
    open_group(h);
    current_group(h)->workshare = true;
    team* tm = h.rc->tm;
    const int n = omp_get_num_threads();
    if (first || !tm || n <= 1) {
        register_chunks(reductions, old, nullptr, static_cast<unsigned>(n));
        if (tm && n > 1)
            share_publish(share_kind::task_reductions, tm, construct, reductions,
                          reductions[red_base], n);
    } else {
        auto* first_data =
            static_cast<desc*>(share_await(share_kind::task_reductions, tm, construct));
        register_chunks(reductions, old, first_data, static_cast<unsigned>(n));
    }
    attach(h, reductions);
}

}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::tasking;
namespace gomp = loom::omp::gomp;

LOOM_OMP_API void GOMP_taskgroup_start() {
    open_group(current_here());
    LOOM_OMPT_EVENT(sync_region_bound(ompt_sync_region_taskgroup, ompt_scope_begin, LOOM_OMPT_RA));
}

// The chunks outlive the taskgroup: the compiler combines them after GOMP_taskgroup_end
// and then calls GOMP_taskgroup_reduction_unregister.
LOOM_OMP_API void GOMP_taskgroup_end() {
    LOOM_OMPT_ENTER();
    LOOM_OMPT_EVENT(sync_region_wait(ompt_sync_region_taskgroup, ompt_scope_begin, LOOM_OMPT_RA));
    close_group(current_here());
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_taskgroup, ompt_scope_end, LOOM_OMPT_RA));
}

LOOM_OMP_API void GOMP_taskgroup_reduction_register(std::uintptr_t* data) {
    here h = current_here();
    gomp::register_chunks(data, gomp::visible_reductions(h), nullptr,
                          static_cast<unsigned>(omp_get_num_threads()));
    gomp::attach(h, data);
}

// Frees the chunks of one registration (up to the next registration's first descriptor).
LOOM_OMP_API void GOMP_taskgroup_reduction_unregister(std::uintptr_t* data) {
    std::uintptr_t* d = data;
    do {
        std::free(reinterpret_cast<void*>(d[gomp::red_base]));
        d = reinterpret_cast<std::uintptr_t*>(d[gomp::red_next]);
    } while (d && d[gomp::red_head] == 0);
}

// task.c: for i < cnt, ptrs[i] (an original list item, or a private copy remapped
// before) becomes the running thread's private copy; for i < cntorig, ptrs[cnt + i]
// receives the original list item.
LOOM_OMP_API void GOMP_task_reduction_remap(std::size_t cnt, std::size_t cntorig, void** ptrs) {
    here h = current_here();
    std::uintptr_t* data = gomp::visible_reductions(h);
    const auto id = static_cast<unsigned>(omp_get_thread_num());
    for (std::size_t i = 0; i < cnt; ++i) {
        void** orig = i < cntorig ? &ptrs[cnt + i] : nullptr;
        if (!gomp::remap_original(data, id, ptrs[i], orig) &&
            !gomp::remap_private(data, id, ptrs[i], orig))
            gomp::no_match(ptrs[i]);
    }
}

// task.c: ends the construct's taskgroup; member 0 (which combined the chunks) frees
// them; then the construct's barrier unless it was cancelled.
LOOM_OMP_API void GOMP_workshare_task_reduction_unregister(bool cancelled) {
    here h = current_here();
    tgroup* g = current_group(h);
    std::uintptr_t* data = g ? g->gomp_red : nullptr;
    close_group(h);
    team* tm = h.rc->tm;
    const int n = omp_get_num_threads();
    if (tm && n > 1 && data) gomp::share_leave(tm, data[gomp::red_base]);
    if (data && omp_get_thread_num() == 0) GOMP_taskgroup_reduction_unregister(data);
    if (!cancelled) team_barrier(current_task());
}

// parallel.c: the descriptors are the first word of the region's data block; returns
// the team size, over which the compiler combines the chunks after the region.
LOOM_OMP_API unsigned GOMP_parallel_reductions(gomp::body_fn fn, void* data, unsigned num_threads,
                                               unsigned flags) {
    auto* reductions = *static_cast<std::uintptr_t**>(data);
    // The team is at most this large (num_threads, else nthreads-var); the chunks of
    // members it does not get stay zeroed and are not combined.
    const int most = num_threads ? static_cast<int>(num_threads) : max_threads(false);
    gomp::register_chunks(reductions, nullptr, nullptr, static_cast<unsigned>(most > 0 ? most : 1));
    gomp::parallel_reduction r{fn, data, reductions};
    gomp::fork(&gomp::parallel_reduction_body, &r, num_threads, flags);
    return static_cast<unsigned>(r.team);
}
