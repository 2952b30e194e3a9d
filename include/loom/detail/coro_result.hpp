// The outcome of a loom coroutine while its frame lives: the value given to co_return
// or the exception that left the body. A lazy hands it to the coroutine that awaited
// it; a coroutine returning a future moves it into the future's shared state once its
// frame is gone. coro_value_slot<T> gives a promise type the return_value or
// return_void and the unhandled_exception that fill it.
#pragma once

#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "loom/detail/shared_state.hpp"

namespace loom::detail {

template <class T>
class coro_result {
    // References are kept as pointers, void as an empty marker.
    struct nothing {};
    using stored = std::conditional_t<std::is_void_v<T>, nothing,
                                      std::conditional_t<std::is_reference_v<T>,
                                                         std::remove_reference_t<T>*, T>>;

public:
    /// Whether the outcome can be moved without a chance of throwing.
    static constexpr bool nothrow_movable = std::is_nothrow_move_constructible_v<stored>;

    coro_result() noexcept {}
    coro_result(const coro_result&) = delete;
    coro_result& operator=(const coro_result&) = delete;
    /// Takes over `o`'s outcome (moving its value: only with a nothrow move).
    coro_result(coro_result&& o) noexcept {
        static_assert(nothrow_movable);
        if (o.kind_ == kind::value) {
            emplace_value(std::move(o.value_));
        } else if (o.kind_ == kind::exception) {
            set_exception(std::move(o.exc_));
        }
    }
    ~coro_result() { clear(); }

    template <class... A>
    void emplace(A&&... a) {
        if constexpr (std::is_reference_v<T>) {
            static_assert(sizeof...(A) == 1);
            (emplace_value(std::addressof(a)), ...);
        } else {
            emplace_value(std::forward<A>(a)...);
        }
    }
    void set_exception(std::exception_ptr e) noexcept {
        clear();
        ::new (static_cast<void*>(std::addressof(exc_))) std::exception_ptr(std::move(e));
        kind_ = kind::exception;
    }

    /// The value (moved out), or the exception rethrown.
    T take() {
        if (kind_ == kind::exception) std::rethrow_exception(exc_);
        if constexpr (std::is_void_v<T>) {
            return;
        } else if constexpr (std::is_reference_v<T>) {
            return *value_;
        } else {
            return std::move(value_);
        }
    }

    /// Makes `st` ready with this outcome, as the last act of the running task (a
    /// coroutine's end: state_base::make_ready_last).
    void publish(shared_state<T>* st) noexcept {
        stage(st);
        st->publish_staged_last();
    }

    /// Moves the outcome into `st` without making it ready (shared_state::
    /// publish_staged_last). An outcome never set (a coroutine that flowed off its end
    /// without co_return) reads as a broken promise; a value whose move throws, as
    /// that exception.
    void stage(shared_state<T>* st) noexcept {
        if (kind_ == kind::exception) {
            st->stage_exception(std::move(exc_));
        } else if (kind_ == kind::empty) {
            st->stage_exception(std::make_exception_ptr(std::future_error(std::future_errc::broken_promise)));
        } else if constexpr (std::is_void_v<T>) {
            st->stage_value();
        } else if constexpr (std::is_reference_v<T>) {
            st->stage_value(*value_);
        } else {
            try {
                st->stage_value(std::move(value_));
            } catch (...) {
                st->stage_exception(std::current_exception());
            }
        }
    }

private:
    enum class kind : std::uint8_t { empty, value, exception };

    template <class... A>
    void emplace_value(A&&... a) {
        ::new (static_cast<void*>(std::addressof(value_))) stored(std::forward<A>(a)...);
        kind_ = kind::value;
    }
    void clear() noexcept {
        if (kind_ == kind::value) {
            value_.~stored();
        } else if (kind_ == kind::exception) {
            exc_.~exception_ptr();
        }
        kind_ = kind::empty;
    }

    // One of the two at a time: a coroutine frame is as small as it can be.
    union {
        stored value_;
        std::exception_ptr exc_;
    };
    kind kind_ = kind::empty;
};

/// The co_return side of a promise type whose outcome is a coro_result<T>.
template <class T>
struct coro_value_slot {
    coro_result<T> result;

    // U defaults to T so that `co_return {a, b};` builds a T.
    template <class U = T>
        requires std::is_constructible_v<T, U&&>
    void return_value(U&& v) {
        result.emplace(std::forward<U>(v));
    }
    void unhandled_exception() noexcept { result.set_exception(std::current_exception()); }
};

template <class T>
struct coro_value_slot<T&> {
    coro_result<T&> result;

    void return_value(T& r) noexcept { result.emplace(r); }
    void unhandled_exception() noexcept { result.set_exception(std::current_exception()); }
};

template <>
struct coro_value_slot<void> {
    coro_result<void> result;

    void return_void() noexcept { result.emplace(); }
    void unhandled_exception() noexcept { result.set_exception(std::current_exception()); }
};

}  // namespace loom::detail
