// Worker claims: one bit per worker.
#include "parallel/claims.hpp"

#include <atomic>
#include <bit>
#include <cstdint>

namespace loom::omp::claims {

namespace {
constexpr unsigned words = max_workers / 64;
std::atomic<std::uint64_t> g_bits[words];

struct alignas(64) lingering_flag {
    std::atomic<bool> on{false};
};
lingering_flag g_lingering[max_workers];
// Read by every lingering member at every spin round: written only when a region
// waits for workers, so the line stays shared otherwise.
alignas(64) std::atomic<int> g_demand{0};
}  // namespace

bool try_claim(unsigned w) noexcept {
    if (w >= max_workers) return false;
    std::uint64_t bit = std::uint64_t{1} << (w % 64);
    std::atomic<std::uint64_t>& word = g_bits[w / 64];
    if (word.load(std::memory_order_relaxed) & bit) return false;
    return (word.fetch_or(bit, std::memory_order_acq_rel) & bit) == 0;
}

int claim_any(unsigned prefer, unsigned nworkers) noexcept {
    if (nworkers > max_workers) nworkers = max_workers;
    if (nworkers <= 1) return -1;
    if (prefer == 0 || prefer >= nworkers) prefer = 1;
    // Worker 0 is the initial thread's: it serves its mailbox only while that thread
    // is inside the runtime, so it is never handed to another team.
    for (unsigned k = 0; k < nworkers - 1; ++k) {
        unsigned w = 1 + (prefer - 1 + k) % (nworkers - 1);
        if (try_claim(w)) return static_cast<int>(w);
    }
    return -1;
}

void release(unsigned w) noexcept {
    if (w >= max_workers) return;
    g_bits[w / 64].fetch_and(~(std::uint64_t{1} << (w % 64)), std::memory_order_acq_rel);
}

bool none_claimed() noexcept {
    for (auto& w : g_bits)
        if (w.load(std::memory_order_acquire) != 0) return false;
    return true;
}

int claimed_count(unsigned nworkers) noexcept {
    if (nworkers > max_workers) nworkers = max_workers;
    int n = 0;
    for (unsigned i = 0; i * 64 < nworkers; ++i) {
        std::uint64_t word = g_bits[i].load(std::memory_order_relaxed);
        if (nworkers - i * 64 < 64) word &= (std::uint64_t{1} << (nworkers - i * 64)) - 1;
        n += std::popcount(word);
    }
    return n;
}

void reset() noexcept {
    for (auto& w : g_bits) w.store(0, std::memory_order_relaxed);
    for (auto& f : g_lingering) f.on.store(false, std::memory_order_relaxed);
    g_demand.store(0, std::memory_order_relaxed);
}

void set_lingering(unsigned w, bool lingering) noexcept {
    if (w < max_workers) g_lingering[w].on.store(lingering, std::memory_order_release);
}

bool lingering(unsigned w) noexcept {
    return w < max_workers && g_lingering[w].on.load(std::memory_order_acquire);
}

bool any_lingering(unsigned nworkers) noexcept {
    if (nworkers > max_workers) nworkers = max_workers;
    for (unsigned w = 1; w < nworkers; ++w)
        if (lingering(w)) return true;
    return false;
}

void want_workers(bool want) noexcept {
    g_demand.fetch_add(want ? 1 : -1, std::memory_order_acq_rel);
}

bool workers_wanted() noexcept { return g_demand.load(std::memory_order_relaxed) > 0; }

}  // namespace loom::omp::claims
