// GOMP_parallel_start / GOMP_parallel_end (parallel.c, GCC 4.x): the region is forked by
// GOMP_parallel_start and joined by GOMP_parallel_end, and between them the caller runs
// the body as member 0.
//
// loom's fork (parallel/fork.cpp) is one call that runs member 0's share in place and
// then joins. To return to the caller in the middle of it, the fork runs on a stack of
// its own: member 0's share switches back to the caller's context, leaving the fork's
// frames suspended on that stack; GOMP_parallel_end switches to them again, member 0's
// share returns, and the fork joins as for any region. The caller's context stays on
// its OS thread throughout (as libomp's GOMP_parallel_start, kmp_gsupport.cpp, keeps the
// master in its thread), so gtid, threadprivate data and the member's tied worker stay
// valid. Only GCC older than 4.9 emits this pair.
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "gomp/parallel_start.hpp"
#include "loom/ext/scheduler.hpp"
#include "out_of_memory.hpp"
#include "parallel/thread.hpp"

namespace loom::omp::gomp {

namespace {

struct split_region {
    ucontext_t caller{};
    ucontext_t side{};
    void* stack = nullptr;         // the mapping: a guard page, then the fork's stack
    std::size_t mapped = 0;
    body_fn fn = nullptr;
    void* data = nullptr;
    unsigned num_threads = 0;
    unsigned flags = 0;
    void (*prologue)(void*) = nullptr;
    void* arg = nullptr;
    void (*cleanup)(void*) = nullptr;
    split_region* outer = nullptr;  // the region this thread started before (nesting)
    std::uintptr_t outer_side_lo = 0;  // the thread's tied side stack before this one
    std::uintptr_t outer_side_hi = 0;
};

// Regions started and not yet ended by this OS thread, innermost first. The caller's
// context never leaves its thread between start and end (see above).
thread_local split_region* t_open = nullptr;

// The fork's stack: as large as a fiber's (the join runs explicit tasks on it).
std::size_t side_stack_size() {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t want = std::max<std::size_t>(ext::stack_size(), std::size_t{1} << 20);
    return (want + page - 1) / page * page + page;
}

bool map_stack(split_region& r) {
    r.mapped = side_stack_size();
    void* p = mmap(nullptr, r.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                   -1, 0);
    if (p == MAP_FAILED) return false;
    mprotect(p, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), PROT_NONE);  // overflow guard
    r.stack = p;
    return true;
}

// Every member's body: member 0 hands the thread back to GOMP_parallel_start's caller
// and resumes when GOMP_parallel_end asks for the join.
void member_body(void* p) {
    auto* r = static_cast<split_region*>(p);
    if (member_id() == 0) {
        swapcontext(&r->side, &r->caller);
        return;
    }
    if (r->prologue) r->prologue(r->arg);
    r->fn(r->data);
}

// Entry of the fork's stack; makecontext passes int arguments, so the pointer is split.
void side_entry(unsigned lo, unsigned hi) {
    auto* r = reinterpret_cast<split_region*>((std::uintptr_t{hi} << 32) | lo);
    fork(member_body, r, r->num_threads, r->flags);
    swapcontext(&r->side, &r->caller);  // joined: back to GOMP_parallel_end
    std::abort();                       // never resumed again
}

}  // namespace

void split_start(body_fn fn, void* data, unsigned num_threads, unsigned flags,
                 void (*prologue)(void*), void* arg, void (*cleanup)(void*)) {
    auto* r = allocate_or_stop([] { return new split_region; }, "a GOMP_parallel_start region",
                               sizeof(split_region));
    r->fn = fn;
    r->data = data;
    r->num_threads = num_threads;
    r->flags = flags;
    r->prologue = prologue;
    r->arg = arg;
    r->cleanup = cleanup;
    if (!map_stack(*r)) out_of_memory("the GOMP_parallel_start fork's stack", r->mapped);
    getcontext(&r->side);
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    r->side.uc_stack.ss_sp = static_cast<char*>(r->stack) + page;
    r->side.uc_stack.ss_size = r->mapped - page;
    r->side.uc_link = nullptr;
    const auto bits = reinterpret_cast<std::uintptr_t>(r);
    makecontext(&r->side, reinterpret_cast<void (*)()>(&side_entry), 2,
                static_cast<unsigned>(bits & 0xffffffffu), static_cast<unsigned>(bits >> 32));
    r->outer = t_open;
    t_open = r;
    // The fork on the side stack is the initial thread's own code (context_is_tied):
    // it may grow the pool for its team and park its waits like the native context.
    thread_state* th = this_thread();
    r->outer_side_lo = th->side_lo;
    r->outer_side_hi = th->side_hi;
    th->side_lo = reinterpret_cast<std::uintptr_t>(r->stack);
    th->side_hi = th->side_lo + r->mapped;
    swapcontext(&r->caller, &r->side);  // returns once the caller is member 0
    if (prologue) prologue(arg);
}

void split_end() {
    split_region* r = t_open;
    if (!r) return;  // no region started: nothing to join
    t_open = r->outer;
    swapcontext(&r->caller, &r->side);  // member 0's share returns; the fork joins
    thread_state* th = this_thread();
    th->side_lo = r->outer_side_lo;
    th->side_hi = r->outer_side_hi;
    munmap(r->stack, r->mapped);
    if (r->cleanup) r->cleanup(r->arg);
    delete r;
}

}  // namespace loom::omp::gomp

using namespace loom::omp::gomp;

// libgomp_g.h: void GOMP_parallel_start (void (*) (void *), void *, unsigned);
LOOM_OMP_API void GOMP_parallel_start(body_fn fn, void* data, unsigned num_threads) {
    split_start(fn, data, num_threads, 0);
}

LOOM_OMP_API void GOMP_parallel_end() { split_end(); }
