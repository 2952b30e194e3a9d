// The building blocks of the __kmpc_atomic_* entry points (kmpc/atomic.cpp).
//
// What calls them: clang 19 emits no __kmpc_atomic_* call for host code (every
// `#pragma omp atomic` form becomes an LLVM atomic instruction, or a generic
// __atomic_* call into libatomic for long double, __float128, _Complex and __int128).
// They are libomp's ABI all the same: Intel's compilers emit them, and programs and
// LLVM's own runtime tests call them directly. loom exports exactly the set Debian's
// libomp 19 exports on x86-64 (340 names; the _Quad/float16/cmplx16 and `_fp` forms
// exist only in libomp builds with KMP_HAVE_QUAD, which a clang-built libomp lacks).
//
// How: an object whose size is 1, 2, 4 or 8 bytes and whose address is aligned to its
// size is updated lock-free (std::atomic_ref: fetch_add/and/or/xor where the operation
// has one, else a CAS loop on the object's bytes). Everything else (long double and the
// complex types of 16 and 32 bytes, or a misaligned object) is updated under one lock
// of a striped table chosen by the object's address, so all lock-based updates of one
// object exclude each other. Memory order: sequentially consistent read-modify-writes
// (a locked instruction on x86 anyway), as libomp's entry points give.
//
// Semantics (libomp's, kmp_atomic.cpp): `op` is x = x op e, `_rev` is x = e op x,
// `_cpt` returns the new value when flag != 0 and the old one otherwise, `_swp`
// returns the old value, `andl`/`orl` are && / ||, `eqv` is ~(x ^ e), `neqv` is x ^ e,
// `max`/`min` store e only when x < e / x > e.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace loom::omp::atomics {

// ---- the types of the ABI -----------------------------------------------------------

__extension__ typedef _Complex float cmplx4;         // kmp_cmplx32
__extension__ typedef _Complex double cmplx8;        // kmp_cmplx64
__extension__ typedef _Complex long double cmplx10;  // kmp_cmplx80 (32 bytes)

// ---- locks for what a CAS cannot cover ------------------------------------------------

/// Locks / unlocks the stripe of the lock table that covers `addr`.
void stripe_lock(const void* addr) noexcept;
void stripe_unlock(const void* addr) noexcept;

struct stripe_guard {
    explicit stripe_guard(const void* a) noexcept : addr(a) { stripe_lock(addr); }
    ~stripe_guard() { stripe_unlock(addr); }
    stripe_guard(const stripe_guard&) = delete;
    stripe_guard& operator=(const stripe_guard&) = delete;
    const void* addr;
};

/// The one global atomic lock: __kmpc_atomic_start / __kmpc_atomic_end (and, for the
/// GOMP ABI, GOMP_atomic_start / GOMP_atomic_end).
void global_lock() noexcept;
void global_unlock() noexcept;
/// The global lock's OMPT wait id (mutex events of kind ompt_mutex_atomic).
std::uintptr_t global_lock_id() noexcept;

// ---- lock-free or not ---------------------------------------------------------------

template <class T>
inline constexpr bool cas_width = std::is_trivially_copyable_v<T> &&
                                  (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                   sizeof(T) == 8);

/// True when `p` can be updated with a CAS: a CAS width and naturally aligned (a
/// misaligned locked instruction would be a split lock: slow, and fatal where the
/// kernel enforces split-lock detection).
template <class T>
inline bool lock_free_at(const void* p) noexcept {
    if constexpr (cas_width<T>)
        return (reinterpret_cast<std::uintptr_t>(p) & (sizeof(T) - 1)) == 0;
    else
        return false;
}

// ---- arithmetic -----------------------------------------------------------------------

/// Unsigned type at least as wide as int in which T's + - * << wrap instead of
/// overflowing (signed overflow and int promotion of unsigned short are UB traps).
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
inline constexpr bool is_int = std::is_integral_v<T>;

struct op_add {
    template <class T, class R>
    static T apply(T a, R b) noexcept {
        if constexpr (is_int<T> && std::is_same_v<T, R>)
            return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
        else
            return static_cast<T>(a + b);
    }
    template <class T>
    static T fetch(std::atomic_ref<T> r, T b) noexcept { return r.fetch_add(b); }
};
struct op_sub {
    template <class T, class R>
    static T apply(T a, R b) noexcept {
        if constexpr (is_int<T> && std::is_same_v<T, R>)
            return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
        else
            return static_cast<T>(a - b);
    }
    template <class T>
    static T fetch(std::atomic_ref<T> r, T b) noexcept { return r.fetch_sub(b); }
};
struct op_mul {
    template <class T, class R>
    static T apply(T a, R b) noexcept {
        if constexpr (is_int<T> && std::is_same_v<T, R>)
            return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
        else
            return static_cast<T>(a * b);
    }
};
struct op_div {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a / b); }
};
struct op_andb {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a & b); }
    template <class T>
    static T fetch(std::atomic_ref<T> r, T b) noexcept { return r.fetch_and(b); }
};
struct op_orb {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a | b); }
    template <class T>
    static T fetch(std::atomic_ref<T> r, T b) noexcept { return r.fetch_or(b); }
};
struct op_xor {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a ^ b); }
    template <class T>
    static T fetch(std::atomic_ref<T> r, T b) noexcept { return r.fetch_xor(b); }
};
using op_neqv = op_xor;
struct op_eqv {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(~(a ^ b)); }
};
struct op_shl {
    template <class T, class R>
    static T apply(T a, R b) noexcept {
        return static_cast<T>(static_cast<wrap_t<T>>(a) << b);
    }
};
struct op_shr {
    // Arithmetic for signed T (defined in C++20), logical for unsigned T.
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a >> b); }
};
struct op_andl {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a && b); }
};
struct op_orl {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return static_cast<T>(a || b); }
};

/// x = e op x, for the _rev entry points.
template <class Op>
struct reversed {
    template <class T, class R>
    static T apply(T a, R b) noexcept { return Op::apply(static_cast<T>(b), a); }
};

template <class Op, class T>
concept has_fetch = is_int<T> && requires(std::atomic_ref<T> r, T b) { Op::fetch(r, b); };

// ---- atomic access through the object's bytes ------------------------------------------

template <std::size_t Size>
using bits_for = std::conditional_t<
    Size == 1, std::uint8_t,
    std::conditional_t<Size == 2, std::uint16_t,
                       std::conditional_t<Size == 4, std::uint32_t, std::uint64_t>>>;

/// Atomic access to a T of CAS width through an unsigned integer of its size. (An
/// std::atomic_ref<_Complex float> would not do: the type is only 4-aligned, so the
/// compilers fall back to out-of-line libatomic calls.) Values cross by bit_cast, so
/// floating-point values compare by representation, as a CAS must: a NaN still matches
/// itself and the loop ends.
template <class T>
class cell {
public:
    using bits = bits_for<sizeof(T)>;
    explicit cell(T* p) noexcept : r_(*reinterpret_cast<bits*>(p)) {}

    T load(std::memory_order o) const noexcept { return std::bit_cast<T>(r_.load(o)); }
    void store(T v, std::memory_order o) const noexcept { r_.store(std::bit_cast<bits>(v), o); }
    T exchange(T v) const noexcept {
        return std::bit_cast<T>(r_.exchange(std::bit_cast<bits>(v), std::memory_order_seq_cst));
    }
    /// On failure `expected` receives the current value.
    bool cas(T& expected, T desired, bool weak) const noexcept {
        bits e = std::bit_cast<bits>(expected);
        const bits d = std::bit_cast<bits>(desired);
        const bool ok = weak ? r_.compare_exchange_weak(e, d, std::memory_order_seq_cst,
                                                        std::memory_order_relaxed)
                             : r_.compare_exchange_strong(e, d, std::memory_order_seq_cst,
                                                          std::memory_order_seq_cst);
        if (!ok) expected = std::bit_cast<T>(e);
        return ok;
    }

private:
    std::atomic_ref<bits> r_;
};

// ---- plain access under a stripe lock ------------------------------------------------
// Through memcpy: the object may be misaligned for its type (a packed struct), which a
// plain T access would not allow (and UBSan's alignment check would stop).

template <class T>
inline T plain_load(const T* x) noexcept {
    T v;
    std::memcpy(&v, x, sizeof(T));
    return v;
}
template <class T>
inline void plain_store(T* x, const T& v) noexcept {
    std::memcpy(x, &v, sizeof(T));
}

// ---- the update primitives -----------------------------------------------------------

template <class T>
struct old_new {
    T old_value;
    T new_value;
};

/// *x = Op(*x, e) atomically; returns the value before and after.
template <class Op, class T, class R>
inline old_new<T> update(T* x, R e) noexcept {
    if constexpr (cas_width<T>) {
        if (lock_free_at<T>(x)) [[likely]] {
            if constexpr (has_fetch<Op, T> && std::is_same_v<T, R>) {
                const T old = Op::fetch(std::atomic_ref<T>(*x), e);
                return {old, Op::apply(old, e)};
            } else {
                const cell<T> c(x);
                T old = c.load(std::memory_order_relaxed);
                T desired;
                do {
                    desired = Op::apply(old, e);
                } while (!c.cas(old, desired, true));
                return {old, desired};
            }
        }
    }
    stripe_guard g(x);
    const T old = plain_load(x);
    const T desired = Op::apply(old, e);
    plain_store(x, desired);
    return {old, desired};
}

/// *x = e if it improves on *x (max: *x < e, min: *x > e); stores nothing otherwise.
template <bool Max, class T>
inline old_new<T> update_extreme(T* x, T e) noexcept {
    auto replaces = [e](T cur) noexcept { return Max ? cur < e : cur > e; };
    if constexpr (cas_width<T>) {
        if (lock_free_at<T>(x)) [[likely]] {
            const cell<T> c(x);
            T old = c.load(std::memory_order_relaxed);
            while (replaces(old)) {
                if (c.cas(old, e, true)) return {old, e};
            }
            return {old, old};
        }
    }
    stripe_guard g(x);
    const T old = plain_load(x);
    if (!replaces(old)) return {old, old};
    plain_store(x, e);
    return {old, e};
}

template <class T>
inline T read(T* x) noexcept {
    if constexpr (cas_width<T>)
        if (lock_free_at<T>(x)) [[likely]]
            return cell<T>(x).load(std::memory_order_seq_cst);
    stripe_guard g(x);
    return plain_load(x);
}

template <class T>
inline void write(T* x, T v) noexcept {
    if constexpr (cas_width<T>)
        if (lock_free_at<T>(x)) [[likely]] {
            cell<T>(x).store(v, std::memory_order_seq_cst);
            return;
        }
    stripe_guard g(x);
    plain_store(x, v);
}

template <class T>
inline T swap(T* x, T v) noexcept {
    if constexpr (cas_width<T>)
        if (lock_free_at<T>(x)) [[likely]]
            return cell<T>(x).exchange(v);
    stripe_guard g(x);
    const T old = plain_load(x);
    plain_store(x, v);
    return old;
}

/// if (*x == e) *x = d; returns the old value. T is an integer type.
template <class T>
inline T compare_exchange(T* x, T e, T d) noexcept {
    if constexpr (cas_width<T>)
        if (lock_free_at<T>(x)) [[likely]] {
            (void)cell<T>(x).cas(e, d, false);
            return e;  // the old value either way
        }
    stripe_guard g(x);
    const T old = plain_load(x);
    if (old == e) plain_store(x, d);
    return old;
}

/// Generic form: f(out, a, b) computes *out = *a op *b on objects of `Size` bytes.
template <std::size_t Size>
inline void generic_update(void* x, void* e, void (*f)(void*, void*, void*)) noexcept {
    if constexpr (Size == 1 || Size == 2 || Size == 4 || Size == 8) {
        using bits = bits_for<Size>;
        if (lock_free_at<bits>(x)) [[likely]] {
            std::atomic_ref<bits> r(*static_cast<bits*>(x));
            bits old = r.load(std::memory_order_relaxed);
            bits desired;
            do {
                f(&desired, &old, e);
            } while (!r.compare_exchange_weak(old, desired, std::memory_order_seq_cst,
                                              std::memory_order_relaxed));
            return;
        }
    }
    stripe_guard g(x);
    f(x, x, e);
}

}  // namespace loom::omp::atomics
