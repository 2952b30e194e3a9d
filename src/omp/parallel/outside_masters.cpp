// Outside masters: see outside_masters.hpp.
//
// Recent masters are bits in two generation words: a master sets its bit (one per
// thread, 64 of them) in the current word when it begins a region, and the generation
// turns every `generation_ns` (checked by the counting forks), clearing the older
// word; a bit counts while it is in either word, so for 1 to 2 generations after the
// thread's last region began. A thread reads the word first and writes only if its bit
// is missing, so in steady state the line stays shared. Threads past 64, and regions
// longer than a generation, are covered by the count of regions in flight: the
// estimate is the larger of the two. Everything here steers team sizes and orders
// nothing: relaxed, and a stale read costs a member too many or too few for one region.
#include "parallel/outside_masters.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>

#include "parallel/claims.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {

constexpr std::int64_t generation_ns = 1000000;

struct alignas(64) recent_masters {
    std::atomic<std::uint64_t> seen[2]{};
    std::atomic<std::uint32_t> generation{0};
    std::atomic<std::int64_t> generation_start_ns{0};
};
recent_masters g_recent;
alignas(64) std::atomic<int> g_in_flight{0};
alignas(64) std::atomic<std::uint64_t> g_slots_taken{0};

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The thread's bit, taken on its first region; -1 once all 64 are taken.
int slot_of(thread_state* th) {
    if (th->outside_slot != thread_state::no_outside_slot) return th->outside_slot;
    std::uint64_t taken = g_slots_taken.load(std::memory_order_relaxed);
    int slot = -1;
    while (~taken != 0) {
        const int free = std::countr_one(taken);
        if (g_slots_taken.compare_exchange_weak(taken, taken | (std::uint64_t{1} << free),
                                                std::memory_order_relaxed)) {
            slot = free;
            break;
        }
    }
    th->outside_slot = slot;
    return slot;
}

// Turns the generation when the current one is over; one thread wins the turn.
std::uint32_t current_generation() {
    const std::int64_t now = now_ns();
    std::int64_t start = g_recent.generation_start_ns.load(std::memory_order_relaxed);
    std::uint32_t gen = g_recent.generation.load(std::memory_order_relaxed);
    if (now - start < generation_ns) return gen;
    const std::int64_t elapsed = now - start;
    if (!g_recent.generation_start_ns.compare_exchange_strong(start, now,
                                                              std::memory_order_relaxed))
        return g_recent.generation.load(std::memory_order_relaxed);
    // Two generations or more without a turn (no fork counted meanwhile): the bits of
    // the current word are as old as the others.
    if (elapsed >= 2 * generation_ns) g_recent.seen[gen & 1].store(0, std::memory_order_relaxed);
    g_recent.seen[(gen + 1) & 1].store(0, std::memory_order_relaxed);
    g_recent.generation.store(gen + 1, std::memory_order_relaxed);
    return gen + 1;
}

// Without reading the clock while the thread's bit is in the current word: the
// generation turns when a region that wants members counts (members_allowed) or a
// thread finds its bit missing, so a thread in steady state pays two loads here.
void note_recent(thread_state* th) {
    const int slot = slot_of(th);
    if (slot < 0) return;
    const std::uint64_t bit = std::uint64_t{1} << slot;
    const std::uint32_t gen = g_recent.generation.load(std::memory_order_relaxed);
    if (g_recent.seen[gen & 1].load(std::memory_order_relaxed) & bit) return;
    std::atomic<std::uint64_t>& word = g_recent.seen[current_generation() & 1];
    if ((word.load(std::memory_order_relaxed) & bit) == 0) word.fetch_or(bit, std::memory_order_relaxed);
}

int recent_count() {
    return std::popcount(g_recent.seen[0].load(std::memory_order_relaxed) |
                         g_recent.seen[1].load(std::memory_order_relaxed));
}

}  // namespace

outside_master::outside_master(thread_state* th, int worker, const implicit_task* parent) noexcept {
    if (worker >= 0 || parent->level != 0 || parent->in_league || parent->target_root) return;
    th_ = th;
    th->outside_in_region = true;
    g_in_flight.fetch_add(1, std::memory_order_relaxed);
    note_recent(th);
}

outside_master::~outside_master() {
    if (!th_) return;
    g_in_flight.fetch_sub(1, std::memory_order_relaxed);
    th_->outside_in_region = false;
}

int outside_master::members_allowed(int nworkers, int own) const noexcept {
    current_generation();  // bits older than two generations stop counting
    const int masters = std::max(recent_count(), g_in_flight.load(std::memory_order_relaxed));
    const int held_by_others = claims::claimed_count(static_cast<unsigned>(nworkers)) - own;
    return std::max(0, nworkers - masters - std::max(0, held_by_others));
}

void forget_outside_master(thread_state* th) noexcept {
    const int slot = th->outside_slot;
    if (slot < 0) return;
    const std::uint64_t keep = ~(std::uint64_t{1} << slot);
    g_recent.seen[0].fetch_and(keep, std::memory_order_relaxed);
    g_recent.seen[1].fetch_and(keep, std::memory_order_relaxed);
    g_slots_taken.fetch_and(keep, std::memory_order_relaxed);
    th->outside_slot = thread_state::no_outside_slot;
}

void reset_outside_masters_after_fork(thread_state* th) noexcept {
    g_recent.seen[0].store(0, std::memory_order_relaxed);
    g_recent.seen[1].store(0, std::memory_order_relaxed);
    g_slots_taken.store(0, std::memory_order_relaxed);
    g_in_flight.store(th && th->outside_in_region ? 1 : 0, std::memory_order_relaxed);
    if (th) th->outside_slot = thread_state::no_outside_slot;
}

}  // namespace loom::omp
