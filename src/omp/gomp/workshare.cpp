// The extra arguments of gcc's 5.0 worksharing entry points (gomp_abi.hpp,
// workshare_extras): task reductions and the team's per-construct `mem` block.
//
// libgomp keeps both in the construct's work share; the member that creates it (the
// first to arrive, work.c gomp_work_share_start) registers and allocates, the others
// adopt, and the last member to leave frees it (gomp_work_share_end*). Here the first
// to arrive is the winner of a single construct (single.hpp: the first member to reach
// the team's s-th single wins it), which every member enters for the construct, so the
// team's single count stays in step and numbers the construct.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gomp/construct_shares.hpp"
#include "gomp/gomp_abi.hpp"
#include "gomp/reductions.hpp"
#include "parallel/thread.hpp"
#include "worksharing/single.hpp"

namespace loom::omp::gomp {

namespace {

constexpr std::size_t block_align = 64;  // libgomp aligns to long long; a line is enough

void* zeroed(std::size_t size) {
    const std::size_t rounded =
        std::max<std::size_t>(block_align, (size + block_align - 1) / block_align * block_align);
    void* p = std::aligned_alloc(block_align, rounded);
    if (!p) {
        std::fprintf(stderr, "loom: out of memory for a worksharing construct's %zu-byte block\n",
                     size);
        std::abort();
    }
    std::memset(p, 0, size);
    return p;
}

const void* block_key(implicit_task* it) {
    return it->tm && it->nthreads > 1 ? static_cast<const void*>(it->tm)
                                      : static_cast<const void*>(this_thread());
}

// loop.c GOMP_loop_start: *mem carries the size in and the shared storage out. One
// block per construct (construct_shares.hpp): with `nowait` a member may be several
// constructs ahead of another (lastprivate-conditional-1.c runs four nowait loops in a
// row).
void share_mem(implicit_task* it, bool first, std::uint32_t construct, void** mem) {
    const void* key = block_key(it);
    const int members = it->tm ? std::max(it->nthreads, 1) : 1;
    if (first || members == 1) {
        void* p = zeroed(reinterpret_cast<std::uintptr_t>(*mem));
        share_publish(share_kind::mem_block, key, construct, p, reinterpret_cast<std::uintptr_t>(p),
                      members);
        *mem = p;
    } else {
        *mem = share_await(share_kind::mem_block, key, construct);
    }
    it->gomp_mem = *mem;
}

}  // namespace

void workshare_extras(std::uintptr_t* reductions, void** mem) {
    if (!reductions && !mem) return;
    implicit_task* it = current_task();
    const bool first = single_begin(it);
    // single_begin counted the construct (in a team of more than one).
    const std::uint32_t construct = it->single_count - 1;
    if (reductions) workshare_task_reduction_register(reductions, first, construct);
    if (mem) share_mem(it, first, construct, mem);
}

void workshare_leave() {
    implicit_task* it = current_task();
    void* const p = it->gomp_mem;
    if (!p) return;
    it->gomp_mem = nullptr;
    if (share_leave(block_key(it), reinterpret_cast<std::uintptr_t>(p))) std::free(p);
}

}  // namespace loom::omp::gomp
