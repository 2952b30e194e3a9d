// The extra arguments of gcc's 5.0 worksharing entry points (gomp_abi.hpp,
// workshare_extras): task reductions and the team's per-construct `mem` block.
//
// libgomp keeps both in the construct's work share; the member that creates it (the
// first to arrive, work.c gomp_work_share_start) registers and allocates, the others
// adopt. Here the first to arrive is the winner of a single construct (single.hpp: the
// first member to reach the team's s-th single wins it), which every member enters for
// the construct, so the team's single count stays in step.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "gomp/gomp_abi.hpp"
#include "gomp/reductions.hpp"
#include "parallel/thread.hpp"
#include "worksharing/single.hpp"

namespace loom::omp::gomp {

namespace {

// A team's `mem` blocks, reused round-robin. Publishing a block takes a team barrier
// (copyprivate), so when the first member of construct k rewrites block k % 4, every
// member has left construct k - 1 and no one reads block (k - 4) % 4 any more.
struct block {
    void* p = nullptr;
    std::size_t size = 0;
};
constexpr std::size_t ring = 4;
constexpr std::size_t block_align = 64;  // libgomp aligns to long long; a line is enough

std::mutex g_blocks_mutex;
// Keyed by the team (or, in a team of one, the thread); never destroyed: blocks are
// handed out until the process ends.
auto& g_blocks = *new std::unordered_map<const void*, std::array<block, ring>>;

void* zeroed_block(const void* key, std::size_t index, std::size_t size) {
    std::lock_guard lk(g_blocks_mutex);
    block& b = g_blocks[key][index % ring];
    if (b.size < size || !b.p) {
        std::free(b.p);
        const std::size_t rounded = std::max<std::size_t>(block_align, (size + block_align - 1) /
                                                                            block_align * block_align);
        b.p = std::aligned_alloc(block_align, rounded);
        b.size = rounded;
    }
    std::memset(b.p, 0, size);
    return b.p;
}

// loop.c GOMP_loop_start: *mem carries the size in and the shared storage out.
void share_mem(bool first, void** mem) {
    implicit_task* it = current_task();
    const std::size_t size = reinterpret_cast<std::uintptr_t>(*mem);
    const bool alone = !it->tm || it->nthreads == 1;
    const void* key = alone ? static_cast<const void*>(this_thread()) : it->tm;
    void* p = first ? zeroed_block(key, alone ? 0 : it->single_count, size) : nullptr;
    *mem = alone ? p : copyprivate_pointer(it, p);
}

}  // namespace

void workshare_extras(std::uintptr_t* reductions, void** mem) {
    if (!reductions && !mem) return;
    implicit_task* it = current_task();
    const bool first = single_begin(it);
    // single_begin counted the construct (in a team of more than one).
    if (reductions) workshare_task_reduction_register(reductions, first, it->single_count - 1);
    if (mem) share_mem(first, mem);
}

}  // namespace loom::omp::gomp
