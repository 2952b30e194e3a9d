// The shared state behind future / shared_future / promise: one allocation holding
// the reference count, the ready event with its continuation list, and the value or
// the exception. Memory ordering: detail/event.hpp and src/api/future.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <type_traits>
#include <utility>

#include "loom/detail/block_cache.hpp"
#include "loom/detail/config.hpp"
#include "loom/detail/event.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom {

/// Errors of the futures API are std::future_error with a std::future_errc code
/// (broken_promise, future_already_retrieved, promise_already_satisfied, no_state), so
/// code written against std::future catches them unchanged.
using future_error = std::future_error;
using future_errc = std::future_errc;

template <class T> class future;
template <class T> class shared_future;
template <class T> class promise;

}  // namespace loom

namespace loom::detail {

[[noreturn]] LOOM_EXPORT void throw_future_error(std::future_errc code);

class state_base {
public:
    enum class status : std::uint8_t { pending, value, exception };

    explicit state_base(std::uint32_t refs) noexcept : refs_(refs) {}
    state_base(const state_base&) = delete;
    state_base& operator=(const state_base&) = delete;
    virtual ~state_base() = default;

    // States and the frames derived from them come from a per-thread block cache.
    static void* operator new(std::size_t size) { return block_cache::allocate(size); }
    static void operator delete(void* p, std::size_t size) noexcept { block_cache::deallocate(p, size); }
    static void* operator new(std::size_t size, std::align_val_t al) { return ::operator new(size, al); }
    static void operator delete(void* p, std::size_t size, std::align_val_t al) noexcept {
        ::operator delete(p, size, al);
    }

    void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        // A sole owner needs no read-modify-write: nobody else can add a reference.
        if (refs_.load(std::memory_order_acquire) == 1 ||
            refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            delete this;
        }
    }

    [[nodiscard]] bool is_ready() const noexcept { return ready_.is_set(); }
    /// Only after is_ready() (or wait()) returned true.
    [[nodiscard]] bool has_exception() const noexcept { return status_ == status::exception; }
    [[nodiscard]] const std::exception_ptr& exception() const noexcept { return exc_; }
    void rethrow_if_exception() const {
        if (status_ == status::exception) std::rethrow_exception(exc_);
    }

    /// Returns once the state is ready. A result still queued on top of this worker's
    /// deque (the task that produces it) runs inline first.
    LOOM_EXPORT void wait() noexcept;
    /// As wait(), but gives up once `deadline` has passed: true if the state is ready.
    LOOM_EXPORT bool wait_until(std::chrono::steady_clock::time_point deadline) noexcept;

    void set_exception(std::exception_ptr e) noexcept { set_exception_as<false>(std::move(e)); }
    /// `Last`: as the last act of the running task (make_ready_last).
    template <bool Last>
    void set_exception_as(std::exception_ptr e) noexcept {
        exc_ = std::move(e);
        status_ = status::exception;
        make_ready<Last>();
    }
    /// The exception without readiness yet: publish_staged_last() makes the state ready.
    /// Between the two nothing reads the state (readers wait for ready first).
    void stage_exception(std::exception_ptr e) noexcept {
        exc_ = std::move(e);
        status_ = status::exception;
    }
    /// Makes ready a state whose outcome was staged (stage_exception, stage_value), as
    /// the last act of the running task (make_ready_last): only a coroutine's end
    /// stages.
    void publish_staged_last() noexcept { make_ready_last(); }
    /// set_exception for a state nobody else holds yet (event::set_unshared).
    void set_exception_unshared(std::exception_ptr e) noexcept {
        exc_ = std::move(e);
        status_ = status::exception;
        ready_.set_unshared();
    }

    /// Runs `t` (a continuation task) when the state is ready: now if it already is.
    void add_continuation(ext::task* t) noexcept {
        count_dependent();
        if (!ready_.add(t)) ext::submit(t);
    }
    /// Registers `n` to fire inline when the state becomes ready; returns false (and
    /// registers nothing) if it is ready already.
    bool add_callback(callback_node* n) noexcept {
        count_dependent();
        return ready_.add(n);
    }
    /// Continuations and callbacks registered so far (saturating; a hint: two racing
    /// registrations may count once). What LOOM_CRITICAL_PATH ranks a dataflow by.
    [[nodiscard]] unsigned dependents() const noexcept { return dependents_.load(std::memory_order_relaxed); }

    /// promise side: claims the right to set the result once.
    bool claim() noexcept {
        return (flags_.fetch_or(satisfied_bit, std::memory_order_acq_rel) & satisfied_bit) == 0;
    }
    [[nodiscard]] bool claimed() const noexcept {
        return (flags_.load(std::memory_order_acquire) & satisfied_bit) != 0;
    }
    /// promise side: the future may be taken once.
    bool retrieve() noexcept {
        return (flags_.fetch_or(retrieved_bit, std::memory_order_relaxed) & retrieved_bit) == 0;
    }

    /// The task that produces this state (async), or null. Written once before the
    /// state is shared; see state_base::wait() for why a stale pointer is harmless.
    ext::task* producer = nullptr;

protected:
    /// Makes the state ready as the last act of the running task (the end of an async
    /// task, a continuation, a dataflow or a coroutine): the first task that this
    /// releases runs on this worker next instead of being queued, handed to an idle
    /// worker or waking one (ext::begin_final_release). A chain of continuations then
    /// stays on one worker: at 2 workers a hop of a .then chain took ~700 ns crossing
    /// to the other worker each time, ~100 ns on one (bench_core_coro_loom).
    void make_ready_last() noexcept {
        ext::final_release last;
        ready_.set();
    }
    template <bool Last>
    void make_ready() noexcept {
        if constexpr (Last) {
            make_ready_last();
        } else {
            ready_.set();
        }
    }

    static constexpr std::uint8_t satisfied_bit = 1;
    static constexpr std::uint8_t retrieved_bit = 2;

    event ready_;
    std::atomic<std::uint32_t> refs_;
    status status_ = status::pending;  // written before ready_.set(), read after
    std::atomic<std::uint8_t> flags_{0};
    std::atomic<std::uint16_t> dependents_{0};  // in the padding before exc_
    std::exception_ptr exc_;

private:
    // A load and a store, not a read-modify-write: this runs for every continuation,
    // and an undercount when two threads register at once only blurs a hint.
    void count_dependent() noexcept {
        const std::uint16_t n = dependents_.load(std::memory_order_relaxed);
        if (n != UINT16_MAX) dependents_.store(static_cast<std::uint16_t>(n + 1), std::memory_order_relaxed);
    }
};

template <class T>
class shared_state : public state_base {
public:
    explicit shared_state(std::uint32_t refs) noexcept : state_base(refs) {}
    ~shared_state() override {
        if (status_ == status::value) value_.~T();
    }

    template <class... A>
    void set_value(A&&... a) {
        set_value_as<false>(std::forward<A>(a)...);
    }
    template <bool Last, class... A>
    void set_value_as(A&&... a) {
        emplace(std::forward<A>(a)...);
        this->template make_ready<Last>();
    }
    /// set_value for a state nobody else holds yet (make_ready_future).
    template <class... A>
    void set_value_unshared(A&&... a) {
        emplace(std::forward<A>(a)...);
        ready_.set_unshared();
    }
    T& value() noexcept { return value_; }

    /// The value without readiness yet (publish_staged_last).
    template <class... A>
    void stage_value(A&&... a) {
        emplace(std::forward<A>(a)...);
    }

private:
    template <class... A>
    void emplace(A&&... a) {
        ::new (static_cast<void*>(std::addressof(value_))) T(std::forward<A>(a)...);
        status_ = status::value;
    }

    union {
        T value_;
    };
};

template <class T>
class shared_state<T&> : public state_base {
public:
    explicit shared_state(std::uint32_t refs) noexcept : state_base(refs) {}
    void set_value(T& r) noexcept { set_value_as<false>(r); }
    template <bool Last>
    void set_value_as(T& r) noexcept {
        ptr_ = std::addressof(r);
        status_ = status::value;
        make_ready<Last>();
    }
    void set_value_unshared(T& r) noexcept {
        ptr_ = std::addressof(r);
        status_ = status::value;
        ready_.set_unshared();
    }
    T& value() noexcept { return *ptr_; }
    void stage_value(T& r) noexcept {
        ptr_ = std::addressof(r);
        status_ = status::value;
    }

private:
    T* ptr_ = nullptr;
};

template <>
class shared_state<void> : public state_base {
public:
    explicit shared_state(std::uint32_t refs) noexcept : state_base(refs) {}
    void set_value() noexcept { set_value_as<false>(); }
    template <bool Last>
    void set_value_as() noexcept {
        status_ = status::value;
        make_ready<Last>();
    }
    void set_value_unshared() noexcept {
        status_ = status::value;
        ready_.set_unshared();
    }
    void value() noexcept {}
    void stage_value() noexcept { status_ = status::value; }
};

// ---- traits -----------------------------------------------------------------------

template <class T> struct is_future_impl : std::false_type {};
template <class T> struct is_future_impl<future<T>> : std::true_type {};
template <class T> struct is_future_impl<shared_future<T>> : std::true_type {};
template <class T>
inline constexpr bool is_future_v = is_future_impl<std::remove_cvref_t<T>>::value;

template <class T> struct is_unique_future_impl : std::false_type {};
template <class T> struct is_unique_future_impl<future<T>> : std::true_type {};
template <class T>
inline constexpr bool is_unique_future_v = is_unique_future_impl<std::remove_cvref_t<T>>::value;

template <class T> struct future_value;
template <class T> struct future_value<future<T>> { using type = T; };
template <class T> struct future_value<shared_future<T>> { using type = T; };
template <class T>
using future_value_t = typename future_value<std::remove_cvref_t<T>>::type;

/// What a continuation returning R makes its future hold: futures are unwrapped.
template <class R> struct unwrapped { using type = R; static constexpr bool is_future = false; };
template <class U> struct unwrapped<future<U>> { using type = U; static constexpr bool is_future = true; };
template <class U> struct unwrapped<shared_future<U>> { using type = U; static constexpr bool is_future = true; };
template <class R> using unwrapped_t = typename unwrapped<R>::type;

/// Access to the state pointer of a future (the classes befriend this).
struct state_access {
    template <class F>
    static auto* get(const F& f) noexcept { return f.st_; }
    template <class T>
    static future<T> make_future(shared_state<T>* s) noexcept { return future<T>(s); }
    /// Wraps `s` in a future or shared_future that takes over one reference.
    template <class Fut>
    static Fut adopt(typename Fut::state_type* s) noexcept { return Fut(s); }
    template <class T>
    static shared_state<T>* take(future<T>& f) noexcept { return std::exchange(f.st_, nullptr); }
};

// ---- moving a result from one state into another -------------------------------------

/// Sets `dst` from the ready state `src` (moving the value if `move`, else copying).
template <class T>
void transfer(shared_state<T>* dst, shared_state<T>* src, bool move) noexcept {
    if (src->has_exception()) {
        dst->set_exception(src->exception());
        return;
    }
    try {
        if constexpr (std::is_void_v<T>) {
            dst->set_value();
        } else if constexpr (std::is_reference_v<T>) {
            dst->set_value(src->value());
        } else {
            if (move) {
                dst->set_value(std::move(src->value()));
            } else {
                dst->set_value(static_cast<const T&>(src->value()));
            }
        }
    } catch (...) {
        dst->set_exception(std::current_exception());
    }
}

/// Makes `dst` take the result of `inner` once that is ready (future unwrapping).
/// Consumes one reference of dst and the reference held by `inner`.
template <class T, class Inner>
void forward_into(shared_state<T>* dst, Inner&& inner) noexcept {
    constexpr bool move = is_unique_future_v<Inner>;
    shared_state<T>* src = nullptr;
    if constexpr (move) {
        src = state_access::take(inner);
    } else {
        src = state_access::get(inner);
        if (src != nullptr) src->add_ref();
    }
    if (src == nullptr) {
        dst->set_exception(std::make_exception_ptr(std::future_error(std::future_errc::no_state)));
        dst->release();
        return;
    }
    struct node final : callback_node {
        shared_state<T>* dst;
        shared_state<T>* src;
    };
    auto finish = [](shared_state<T>* d, shared_state<T>* s) noexcept {
        transfer(d, s, move);
        s->release();
        d->release();
    };
    if (src->is_ready()) {
        finish(dst, src);
        return;
    }
    node* n = nullptr;
    try {
        n = new node;
    } catch (...) {
        src->wait();
        finish(dst, src);
        return;
    }
    n->dst = dst;
    n->src = src;
    n->fire = [](callback_node* c) noexcept {
        node* self = static_cast<node*>(c);
        shared_state<T>* d = self->dst;
        shared_state<T>* s = self->src;
        delete self;
        transfer(d, s, move);
        s->release();
        d->release();
    };
    if (!src->add_callback(n)) {
        delete n;
        finish(dst, src);
    }
}

/// Runs `f` and stores what it returns (or throws) in `st`; a returned future is
/// unwrapped when `st` holds its value type (then, dataflow), kept when `st` holds the
/// future itself (async). `Last`: setting `st` is the last act of the running task
/// (state_base::make_ready_last); only f's own task may say so, not a caller that
/// goes on.
/// Does not touch st's reference count unless unwrapping (then it consumes one).
template <bool Last = false, class T, class F>
void fulfil(shared_state<T>* st, F&& f) noexcept {
    try {
        using R = decltype(std::forward<F>(f)());
        if constexpr (unwrapped<R>::is_future && !std::is_same_v<std::remove_cvref_t<R>, T>) {
            R inner = std::forward<F>(f)();
            st->add_ref();  // forward_into consumes one
            forward_into(st, std::move(inner));
        } else if constexpr (std::is_void_v<T>) {
            std::forward<F>(f)();
            st->template set_value_as<Last>();
        } else {
            st->template set_value_as<Last>(std::forward<F>(f)());
        }
    } catch (...) {
        st->template set_exception_as<Last>(std::current_exception());
    }
}

}  // namespace loom::detail
