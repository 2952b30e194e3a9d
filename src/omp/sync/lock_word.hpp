// The lock word: a 32-bit futex mutex that lives in memory the caller owns.
//
// One protocol serves every mutual-exclusion object of the OpenMP layer: omp_lock_t
// (in place, in the first four bytes of the user's object, so the 4-byte omp_lock_t
// of the GOMP ABI fits too), the lock inside a nest lock, critical sections, and the
// striped table behind the atomics that are too wide for a CAS.
//
// Layout of the word:  [ tag : 16 ][ unused : 12 ][ spin class : 2 ][ state : 2 ]
//   state 0 = free, 1 = held, 2 = held and a waiter may sleep on the futex.
//   tag    = live_tag while initialised (destroy writes dead_tag) so a check can tell
//            an initialised lock from garbage; 0 is accepted as "free, default" so a
//            zero-initialised word works without an init (critical names, lock table).
//            Taking a zero, destroyed or garbage word turns it into a live one.
//   spin class = how long to spin before sleeping (from the lock hint).
//
// Acquire (Drepper, "Futexes Are Tricky", mutex 3): CAS state 0 -> 1; on failure spin
// a bounded number of rounds re-trying the CAS, then exchange the state to 2 and sleep
// on the futex while the old state was not 0.
// Release: CAS state -> 0 (release order); if the old state was 2, wake one sleeper.
// Memory ordering: the successful CAS / exchange that takes the lock is an acquire and
// the CAS that frees it a release, so everything written inside the section
// happens-before the next holder's section. A sleeper cannot miss its wake-up: it only
// sleeps while the word still reads `base|2` (futex compares atomically), and the
// releaser wakes after changing the word whenever it saw 2.
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/ext/futex.hpp"
#include "loom/ext/spin.hpp"

namespace loom::omp {

/// How long a waiter spins before it sleeps, chosen by the lock's hint.
enum class spin_class : std::uint32_t {
    normal = 0,       // no hint: spin a little (the holder is usually about to leave)
    contended = 1,    // omp_sync_hint_contended: spin longer, sleeping costs more here
    uncontended = 2,  // omp_sync_hint_uncontended: contention is rare, sleep early
};

/// Pauses before sleeping, spread over looks at the word with a growing gap (lock_slow).
/// A pause takes 10 to 140 cycles depending on the core, so the default is a few
/// microseconds. On an oversubscribed machine the holder may be descheduled; spinning
/// longer than that only burns the time slice it needs.
inline constexpr std::uint32_t spin_rounds(spin_class c) noexcept {
    switch (c) {
    case spin_class::contended: return 4096;
    case spin_class::uncontended: return 16;
    default: return 256;
    }
}

/// Operations on a lock word. The word itself is plain memory (std::uint32_t) owned by
/// whoever embeds it; all access goes through std::atomic_ref.
class lock_word {
public:
    static constexpr std::uint32_t state_mask = 0x3u;
    static constexpr std::uint32_t free_state = 0u;
    static constexpr std::uint32_t held_state = 1u;
    static constexpr std::uint32_t waiters_state = 2u;
    static constexpr std::uint32_t class_shift = 2u;
    static constexpr std::uint32_t class_mask = 0x3u << class_shift;
    static constexpr std::uint32_t tag_mask = 0xffff0000u;
    static constexpr std::uint32_t live_tag = 0x4c4b0000u;  // "LK"
    static constexpr std::uint32_t dead_tag = 0xdead0000u;

    explicit lock_word(std::uint32_t& w) noexcept : w_(&w) {}

    /// The value an initialised, free word holds.
    static constexpr std::uint32_t initial(spin_class c) noexcept {
        return live_tag | (static_cast<std::uint32_t>(c) << class_shift);
    }

    void init(spin_class c) noexcept { ref().store(initial(c), std::memory_order_release); }
    void mark_destroyed() noexcept { ref().store(dead_tag, std::memory_order_release); }

    [[nodiscard]] std::uint32_t peek() const noexcept {
        return ref().load(std::memory_order_relaxed);
    }
    /// True if the word is an initialised lock (or a zero word, the default free lock).
    [[nodiscard]] static bool valid(std::uint32_t w) noexcept {
        return (w & tag_mask) == live_tag || w == 0;
    }
    [[nodiscard]] static bool held(std::uint32_t w) noexcept { return (w & state_mask) != 0; }

    /// One attempt; never waits.
    [[nodiscard]] bool try_lock() noexcept {
        std::uint32_t w = ref().load(std::memory_order_relaxed);
        if (held(w)) {
            if (valid(w)) return false;
            return take_garbage(w);
        }
        return ref().compare_exchange_strong(w, base_of(w) | held_state,
                                             std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }

    /// The common case of lock(), inline at its callers: one CAS on a free word without
    /// a hint. False: not taken, nothing changed (lock() does the rest).
    [[nodiscard]] bool lock_fast() noexcept {
        std::uint32_t w = initial(spin_class::normal);
        return ref().compare_exchange_strong(w, w | held_state, std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }

    void lock() noexcept {
        // No load first: on a contended word it would fetch the line shared and the CAS
        // then upgrade it, two line transfers. Most words are free and without a hint;
        // a failed CAS returns the word for the others (hinted, zero, held).
        std::uint32_t w = initial(spin_class::normal);
        if (ref().compare_exchange_strong(w, w | held_state, std::memory_order_acquire,
                                          std::memory_order_relaxed))
            return;
        if (!held(w) && ref().compare_exchange_strong(w, base_of(w) | held_state,
                                                      std::memory_order_acquire,
                                                      std::memory_order_relaxed))
            return;
        lock_slow();
    }

    /// The common case of unlock(), inline at its callers: an initialised word that is
    /// held. While the lock is held only its state bits change (a waiter sets 2; init
    /// and destroy of a set lock are refused), so the free word is known from one load
    /// and one exchange frees it whatever a waiter just did: one RMW that cannot fail,
    /// as libgomp's unlock (fetch_and compiles to a CAS loop on x86, which retries
    /// when a waiter sets state 2 in between). False: not that case, or freed by
    /// someone else meanwhile (release_held); nothing changed.
    [[nodiscard]] bool unlock_fast() noexcept {
        const std::uint32_t w = ref().load(std::memory_order_relaxed);
        return (w & tag_mask) == live_tag && held(w) && release_held(w);
    }

    /// Frees the lock. Returns false (and changes nothing) if it was not held.
    bool unlock() noexcept {
        std::uint32_t w = ref().load(std::memory_order_relaxed);
        if ((w & tag_mask) == live_tag) return held(w) && release_held(w);
        for (;;) {
            if (!held(w)) return false;
            if (ref().compare_exchange_weak(w, base_of(w), std::memory_order_release,
                                            std::memory_order_relaxed))
                break;
        }
        if ((w & state_mask) == waiters_state) ext::futex_wake(w_, 1);
        return true;
    }

private:
    /// Frees an initialised word `w` read held: one exchange, then a wake-up if a
    /// waiter may sleep. False if the exchange found it free (freed by someone else
    /// meanwhile, a misuse): it wrote the free word the word already held.
    bool release_held(std::uint32_t w) noexcept {
        const std::uint32_t was = ref().exchange(w & ~state_mask, std::memory_order_release);
        if ((was & state_mask) == waiters_state) ext::futex_wake(w_, 1);
        return held(was);
    }

    std::atomic_ref<std::uint32_t> ref() const noexcept {
        return std::atomic_ref<std::uint32_t>(*w_);
    }
    /// The word without its state bits. A zero, destroyed or garbage word becomes an
    /// initialised one, so a lock taken through it is valid from then on and every
    /// other user waits for it (no word is ever both held and invalid unless it was
    /// garbage to begin with).
    static std::uint32_t base_of(std::uint32_t w) noexcept {
        return (w & tag_mask) == live_tag ? (w & ~state_mask) : initial(spin_class::normal);
    }

    /// A word that is neither initialised nor zero (an uninitialised omp_lock_t on the
    /// stack, say) would make a waiter sleep for ever if its state bits look held: take
    /// it over as a freshly initialised, held lock instead.
    bool take_garbage(std::uint32_t w) noexcept {
        return ref().compare_exchange_strong(w, initial(spin_class::normal) | held_state,
                                             std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }

    void lock_slow() noexcept {
        std::uint32_t w = ref().load(std::memory_order_relaxed);
        if (!valid(w) && held(w) && take_garbage(w)) return;
        const auto cls = static_cast<spin_class>((w & class_mask) >> class_shift);
        std::uint32_t pauses = 1;
        for (std::uint32_t left = spin_rounds(cls); left != 0;) {
            // Stop spinning as soon as someone sleeps: we would only queue behind them.
            if ((w & state_mask) == waiters_state) break;
            if (!held(w) && ref().compare_exchange_weak(w, base_of(w) | held_state,
                                                        std::memory_order_acquire,
                                                        std::memory_order_relaxed))
                return;
            // Back off (1, 2, 4 .. 32 pauses between looks, the same pauses in all as
            // one per look): every look takes the line from the holder, whose release
            // then waits for it. Two threads on one critical section: 0.11 -> 0.04 us.
            pauses = pauses < left ? pauses : left;
            for (std::uint32_t k = 0; k < pauses; ++k) ext::cpu_relax();
            left -= pauses;
            if (pauses < 32) pauses *= 2;
            w = ref().load(std::memory_order_relaxed);
        }
        const std::uint32_t sleeping = base_of(w) | waiters_state;
        // Taking the lock with state 2 may cause one needless wake-up at release; that
        // is the price of never losing one.
        while (held(ref().exchange(sleeping, std::memory_order_acquire)))
            ext::futex_wait(w_, sleeping);
    }

    std::uint32_t* w_;
};

}  // namespace loom::omp
