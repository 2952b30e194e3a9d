// The striped lock table behind the atomics that a CAS cannot cover (long double, the
// 16- and 32-byte complex types, misaligned objects, the generic 10/16/20/32-byte
// forms), and the one global atomic lock of __kmpc_atomic_start / __kmpc_atomic_end.
//
// 64 stripes, one cache line each; the stripe is a hash of the object's address, so
// every lock-based update of one object takes the same stripe and updates of
// unrelated objects rarely meet. Sections under a stripe are a handful of
// instructions, so the lock_word's short spin nearly always wins before any sleep.
#include "sync/atomic.hpp"

#include <cstddef>

#include "sync/lock_word.hpp"

namespace loom::omp::atomics {

namespace {

constexpr unsigned stripe_bits = 6;
constexpr std::size_t stripe_count = std::size_t{1} << stripe_bits;

struct alignas(64) stripe {
    std::uint32_t word = 0;  // a zero lock_word is a free lock
};

constinit stripe stripes[stripe_count];
constinit stripe global_stripe;

std::size_t stripe_of(const void* addr) noexcept {
    // Fibonacci hashing of the address without its low bits (objects of 16 and 32
    // bytes: neighbours should land on different stripes).
    const auto v = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(addr) >> 4);
    return static_cast<std::size_t>((v * 0x9e3779b97f4a7c15ull) >> (64 - stripe_bits));
}

}  // namespace

void stripe_lock(const void* addr) noexcept { lock_word(stripes[stripe_of(addr)].word).lock(); }
void stripe_unlock(const void* addr) noexcept {
    (void)lock_word(stripes[stripe_of(addr)].word).unlock();
}

void global_lock() noexcept { lock_word(global_stripe.word).lock(); }
void global_unlock() noexcept { (void)lock_word(global_stripe.word).unlock(); }
std::uintptr_t global_lock_id() noexcept { return reinterpret_cast<std::uintptr_t>(&global_stripe); }

}  // namespace loom::omp::atomics
