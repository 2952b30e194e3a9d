// future<T>, shared_future<T>, promise<T> (also T& and void), make_ready_future,
// make_exceptional_future and the continuation `.then`, close to HPX and the
// Concurrency TS. A waiting get()/wait() in a task parks the task, not its worker.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <type_traits>
#include <utility>

#include "loom/detail/deadline.hpp"
#include "loom/detail/shared_state.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom {

enum class future_status { ready, timeout, deferred };

/// Launch policies (as hpx::launch): async runs the callable as a new task (the
/// default); sync runs it in the calling context (async) or, for a continuation whose
/// future is already ready, right away in then().
struct launch {
    struct async_policy {};
    struct sync_policy {};
    static constexpr async_policy async{};
    static constexpr sync_policy sync{};
};

namespace detail {

// Parks the calling task (blocks a thread outside the pool) until `st` is ready or
// `deadline` passes on its clock (detail/deadline.hpp).
template <class Clock, class Duration>
future_status wait_until_ready(state_base* st, const std::chrono::time_point<Clock, Duration>& deadline) {
    const bool ready = st->is_ready() ||
                       wait_until_clock(deadline, [st](steady_time due) { return st->wait_until(due); });
    return ready ? future_status::ready : future_status::timeout;
}

template <class Fut, class F>
auto then_impl(typename Fut::state_type* in, priority p, F&& f);
template <class Fut, class F>
auto then_now(Fut&& ready, F&& f);

}  // namespace detail

// ---- future -------------------------------------------------------------------------

template <class T>
class future {
public:
    using value_type = T;
    using state_type = detail::shared_state<T>;

    future() noexcept = default;
    future(future&& o) noexcept : st_(std::exchange(o.st_, nullptr)) {}
    future& operator=(future&& o) noexcept {
        if (this != &o) {
            reset();
            st_ = std::exchange(o.st_, nullptr);
        }
        return *this;
    }
    future(const future&) = delete;
    future& operator=(const future&) = delete;
    ~future() { reset(); }

    /// Unwrapping constructor: becomes ready with the inner future's result.
    future(future<future<T>>&& outer) noexcept;

    [[nodiscard]] bool valid() const noexcept { return st_ != nullptr; }
    [[nodiscard]] bool is_ready() const noexcept { return st_ != nullptr && st_->is_ready(); }
    [[nodiscard]] bool has_value() const noexcept { return is_ready() && !st_->has_exception(); }
    [[nodiscard]] bool has_exception() const noexcept { return is_ready() && st_->has_exception(); }

    void wait() const {
        check();
        st_->wait();
    }
    template <class Rep, class Period>
    future_status wait_for(const std::chrono::duration<Rep, Period>& d) const {
        return wait_until(detail::deadline_after(d));
    }
    template <class Clock, class Duration>
    future_status wait_until(const std::chrono::time_point<Clock, Duration>& t) const {
        check();
        return detail::wait_until_ready(st_, t);
    }

    /// Waits, then returns the value (or rethrows the exception). The future becomes
    /// invalid.
    T get() {
        check();
        st_->wait();
        struct releaser {
            state_type* s;
            ~releaser() { s->release(); }
        } r{std::exchange(st_, nullptr)};
        r.s->rethrow_if_exception();
        if constexpr (std::is_void_v<T>) {
            return;
        } else if constexpr (std::is_reference_v<T>) {
            return r.s->value();
        } else {
            return std::move(r.s->value());
        }
    }

    shared_future<T> share() noexcept;

    /// Runs f(future<T>) as a new task once this future is ready; returns the future of
    /// its result (a returned future is unwrapped). This future becomes invalid.
    template <class F>
    auto then(F&& f) {
        return then(priority::normal, std::forward<F>(f));
    }
    template <class F>
    auto then(priority p, F&& f) {
        check();
        return detail::then_impl<future<T>>(std::exchange(st_, nullptr), p, std::forward<F>(f));
    }
    template <class F>
    auto then(launch::async_policy, F&& f) {
        return then(priority::normal, std::forward<F>(f));
    }
    /// Runs f right here if this future is ready already, else as a task when it is.
    template <class F>
    auto then(launch::sync_policy, F&& f) {
        check();
        if (!st_->is_ready()) return then(priority::normal, std::forward<F>(f));
        return detail::then_now(std::move(*this), std::forward<F>(f));
    }

private:
    friend struct detail::state_access;
    template <class> friend class shared_future;
    template <class> friend class promise;
    explicit future(state_type* s) noexcept : st_(s) {}
    void check() const {
        if (st_ == nullptr) detail::throw_future_error(std::future_errc::no_state);
    }
    void reset() noexcept {
        if (st_ != nullptr) std::exchange(st_, nullptr)->release();
    }

    state_type* st_ = nullptr;
};

// ---- shared_future ----------------------------------------------------------------

template <class T>
class shared_future {
public:
    using value_type = T;
    using state_type = detail::shared_state<T>;

    shared_future() noexcept = default;
    shared_future(const shared_future& o) noexcept : st_(o.st_) {
        if (st_ != nullptr) st_->add_ref();
    }
    shared_future(shared_future&& o) noexcept : st_(std::exchange(o.st_, nullptr)) {}
    shared_future(future<T>&& f) noexcept : st_(std::exchange(f.st_, nullptr)) {}  // NOLINT
    shared_future& operator=(const shared_future& o) noexcept {
        if (o.st_ != nullptr) o.st_->add_ref();
        reset();
        st_ = o.st_;
        return *this;
    }
    shared_future& operator=(shared_future&& o) noexcept {
        if (this != &o) {
            reset();
            st_ = std::exchange(o.st_, nullptr);
        }
        return *this;
    }
    ~shared_future() { reset(); }

    [[nodiscard]] bool valid() const noexcept { return st_ != nullptr; }
    [[nodiscard]] bool is_ready() const noexcept { return st_ != nullptr && st_->is_ready(); }
    [[nodiscard]] bool has_value() const noexcept { return is_ready() && !st_->has_exception(); }
    [[nodiscard]] bool has_exception() const noexcept { return is_ready() && st_->has_exception(); }

    void wait() const {
        check();
        st_->wait();
    }
    template <class Rep, class Period>
    future_status wait_for(const std::chrono::duration<Rep, Period>& d) const {
        return wait_until(detail::deadline_after(d));
    }
    template <class Clock, class Duration>
    future_status wait_until(const std::chrono::time_point<Clock, Duration>& t) const {
        check();
        return detail::wait_until_ready(st_, t);
    }

    /// Waits, then returns a reference to the value (or rethrows). Stays valid.
    decltype(auto) get() const {
        check();
        st_->wait();
        st_->rethrow_if_exception();
        if constexpr (std::is_void_v<T>) {
            return;
        } else if constexpr (std::is_reference_v<T>) {
            return static_cast<T>(st_->value());
        } else {
            return static_cast<const T&>(st_->value());
        }
    }

    template <class F>
    auto then(F&& f) const {
        return then(priority::normal, std::forward<F>(f));
    }
    template <class F>
    auto then(priority p, F&& f) const {
        check();
        st_->add_ref();
        return detail::then_impl<shared_future<T>>(st_, p, std::forward<F>(f));
    }
    template <class F>
    auto then(launch::async_policy, F&& f) const {
        return then(priority::normal, std::forward<F>(f));
    }
    template <class F>
    auto then(launch::sync_policy, F&& f) const {
        check();
        if (!st_->is_ready()) return then(priority::normal, std::forward<F>(f));
        return detail::then_now(shared_future(*this), std::forward<F>(f));
    }

private:
    friend struct detail::state_access;
    explicit shared_future(state_type* s) noexcept : st_(s) {}
    void check() const {
        if (st_ == nullptr) detail::throw_future_error(std::future_errc::no_state);
    }
    void reset() noexcept {
        if (st_ != nullptr) std::exchange(st_, nullptr)->release();
    }

    state_type* st_ = nullptr;
};

template <class T>
shared_future<T> future<T>::share() noexcept {
    return shared_future<T>(std::move(*this));
}

// ---- promise ------------------------------------------------------------------------

namespace detail {

template <class T>
class promise_base {
public:
    using state_type = shared_state<T>;

    promise_base() : st_(new state_type(1)) {}
    promise_base(promise_base&& o) noexcept : st_(std::exchange(o.st_, nullptr)) {}
    promise_base& operator=(promise_base&& o) noexcept {
        if (this != &o) {
            abandon();
            st_ = std::exchange(o.st_, nullptr);
        }
        return *this;
    }
    promise_base(const promise_base&) = delete;
    promise_base& operator=(const promise_base&) = delete;
    /// A promise destroyed before it was satisfied makes its future throw
    /// future_error(broken_promise).
    ~promise_base() { abandon(); }

    future<T> get_future() {
        check();
        if (!st_->retrieve()) throw_future_error(std::future_errc::future_already_retrieved);
        st_->add_ref();
        return state_access::make_future(st_);
    }

    void set_exception(std::exception_ptr e) {
        claim();
        st_->set_exception(std::move(e));
    }

    [[nodiscard]] bool valid() const noexcept { return st_ != nullptr; }

    void swap(promise_base& o) noexcept { std::swap(st_, o.st_); }

protected:
    void check() const {
        if (st_ == nullptr) throw_future_error(std::future_errc::no_state);
    }
    void claim() {
        check();
        if (!st_->claim()) throw_future_error(std::future_errc::promise_already_satisfied);
    }
    void abandon() noexcept {
        if (st_ == nullptr) return;
        if (st_->claim()) {
            st_->set_exception(
                std::make_exception_ptr(std::future_error(std::future_errc::broken_promise)));
        }
        std::exchange(st_, nullptr)->release();
    }

    state_type* st_;
};

}  // namespace detail

template <class T>
class promise : public detail::promise_base<T> {
public:
    promise() = default;
    promise(promise&&) noexcept = default;
    promise& operator=(promise&&) noexcept = default;

    void set_value(const T& v) {
        this->claim();
        try {
            this->st_->set_value(v);
        } catch (...) {
            this->st_->set_exception(std::current_exception());
        }
    }
    void set_value(T&& v) {
        this->claim();
        try {
            this->st_->set_value(std::move(v));
        } catch (...) {
            this->st_->set_exception(std::current_exception());
        }
    }
    template <class... A>
    void emplace(A&&... a) {
        this->claim();
        try {
            this->st_->set_value(std::forward<A>(a)...);
        } catch (...) {
            this->st_->set_exception(std::current_exception());
        }
    }
};

template <class T>
class promise<T&> : public detail::promise_base<T&> {
public:
    promise() = default;
    promise(promise&&) noexcept = default;
    promise& operator=(promise&&) noexcept = default;

    void set_value(T& v) {
        this->claim();
        this->st_->set_value(v);
    }
};

template <>
class promise<void> : public detail::promise_base<void> {
public:
    promise() = default;
    promise(promise&&) noexcept = default;
    promise& operator=(promise&&) noexcept = default;

    void set_value() {
        this->claim();
        this->st_->set_value();
    }
};

template <class T>
void swap(promise<T>& a, promise<T>& b) noexcept {
    a.swap(b);
}

// ---- ready and exceptional futures ----------------------------------------------------

template <class T>
future<std::decay_t<T>> make_ready_future(T&& v) {
    using V = std::decay_t<T>;
    auto* st = new detail::shared_state<V>(1);
    try {
        st->set_value_unshared(std::forward<T>(v));
    } catch (...) {
        delete st;
        throw;
    }
    return detail::state_access::make_future(st);
}

inline future<void> make_ready_future() {
    auto* st = new detail::shared_state<void>(1);
    st->set_value_unshared();
    return detail::state_access::make_future(st);
}

template <class T>
future<T> make_exceptional_future(std::exception_ptr e) {
    auto* st = new detail::shared_state<T>(1);
    st->set_exception_unshared(std::move(e));
    return detail::state_access::make_future(st);
}

template <class T, class E>
    requires(!std::is_same_v<std::decay_t<E>, std::exception_ptr>)
future<T> make_exceptional_future(E&& e) {
    return make_exceptional_future<T>(std::make_exception_ptr(std::forward<E>(e)));
}

// ---- continuations ------------------------------------------------------------------

namespace detail {

template <class Fut>
Fut adopt(typename Fut::state_type* s) noexcept {
    return state_access::adopt<Fut>(s);
}

/// Registers f as a continuation task of `in` (whose reference it takes over).
template <class Fut, class F>
auto then_impl(typename Fut::state_type* in, priority p, F&& f) {
    using R = std::invoke_result_t<std::decay_t<F>&, Fut>;
    using U = unwrapped_t<R>;
    auto* out = new shared_state<U>(2);  // the returned future + the continuation
    ext::task* t = nullptr;
    try {
        t = ext::make_task(
            [in, out, fn = std::decay_t<F>(std::forward<F>(f))]() mutable {
                Fut arg = adopt<Fut>(in);
                fulfil<true>(out, [&]() -> R { return std::invoke(fn, std::move(arg)); });
                out->release();
            },
            p);
    } catch (...) {
        delete out;
        in->release();
        throw;
    }
    in->add_continuation(t);
    return state_access::make_future(out);
}

/// Runs f(ready) here; the returned future holds its (unwrapped) result.
template <class Fut, class F>
auto then_now(Fut&& ready, F&& f) {
    using R = std::invoke_result_t<std::decay_t<F>&, Fut>;
    using U = unwrapped_t<R>;
    auto* out = new shared_state<U>(1);
    auto result = state_access::make_future(out);
    std::decay_t<F> fn(std::forward<F>(f));
    fulfil(out, [&]() -> R { return std::invoke(fn, std::move(ready)); });
    return result;
}

}  // namespace detail

template <class T>
future<T>::future(future<future<T>>&& outer) noexcept {
    auto* out = new detail::shared_state<T>(1);
    st_ = out;
    if (!outer.valid()) {
        out->set_exception(std::make_exception_ptr(std::future_error(std::future_errc::no_state)));
        return;
    }
    out->add_ref();  // held by the continuation below
    // The inner future is only known once the outer is ready: chain through a
    // continuation that forwards the inner result.
    auto* outer_state = detail::state_access::take(outer);
    detail::then_impl<future<future<T>>>(outer_state, priority::high, [out](future<future<T>> f) {
        try {
            detail::forward_into(out, f.get());
        } catch (...) {
            out->set_exception(std::current_exception());
            out->release();
        }
    });
}

}  // namespace loom
