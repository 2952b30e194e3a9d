// Stop tokens for senders (C++26 [thread.stoptoken] shape, in namespace loom):
//
//   inplace_stop_source / inplace_stop_token / inplace_stop_callback<F>
//       a stop source that lives where it is declared (no allocation, not movable);
//       request_stop() runs the registered callbacks on the requesting thread
//   never_stop_token   a token whose stop is never possible (costs nothing)
//   stop_callback_for_t<Token, F>
//       the callback type for any stoppable token: Token::callback_type<F>, and
//       std::stop_callback<F> for std::stop_token, so code written against the
//       concept accepts std::stop_token as well
//
// A callback runs once, on the thread that requests stop (or in the callback's
// constructor, when stop was requested before). Destroying a callback while it runs on
// another thread waits for it to finish; destroying it from inside its own execution
// is allowed. Callbacks must not block: they run under request_stop(), on whatever
// thread asked for it. The protocol is argued in src/api/stop_token.cpp.
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <stop_token>
#include <thread>
#include <type_traits>
#include <utility>

#include "loom/ext/export.hpp"

namespace loom {

class inplace_stop_source;
class inplace_stop_token;
template <class F>
class inplace_stop_callback;

namespace detail {

/// What inplace_stop_source keeps of a registered callback: an intrusive, doubly
/// linked entry (all links guarded by the source's lock bit).
struct stop_callback_base {
    void (*execute)(stop_callback_base*) noexcept = nullptr;
    stop_callback_base* next = nullptr;
    stop_callback_base** prev = nullptr;  // null: not (or no longer) in the list
    bool* removed_during_callback = nullptr;
    std::atomic<bool> callback_completed{false};
};

}  // namespace detail

/// A stop source that lives where it is declared. Not copyable or movable: tokens and
/// callbacks point at it, and it must outlive them.
class LOOM_EXPORT inplace_stop_source {
public:
    inplace_stop_source() noexcept = default;
    inplace_stop_source(const inplace_stop_source&) = delete;
    inplace_stop_source& operator=(const inplace_stop_source&) = delete;
    /// A source destroyed with callbacks still registered is misuse (debug builds say so).
    ~inplace_stop_source();

    [[nodiscard]] inplace_stop_token get_token() const noexcept;
    [[nodiscard]] static constexpr bool stop_possible() noexcept { return true; }
    [[nodiscard]] bool stop_requested() const noexcept {
        return (state_.load(std::memory_order_acquire) & stop_requested_bit) != 0;
    }
    /// Requests stop and runs every registered callback on this thread; true for the
    /// call that made the request, false if stop had been requested before.
    bool request_stop() noexcept;

private:
    template <class>
    friend class inplace_stop_callback;

    static constexpr std::uint8_t stop_requested_bit = 1;
    static constexpr std::uint8_t locked_bit = 2;

    /// Adds `cb` unless stop was requested (false: the caller runs the callback).
    bool try_add(detail::stop_callback_base* cb) const noexcept;
    /// Takes `cb` out; if it is running on another thread, waits until it has run.
    void remove(detail::stop_callback_base* cb) const noexcept;
    bool lock_unless_stopped(bool request) const noexcept;
    void lock() const noexcept;
    void unlock(std::uint8_t state_after) const noexcept {
        state_.store(state_after, std::memory_order_release);
    }

    mutable std::atomic<std::uint8_t> state_{0};
    mutable detail::stop_callback_base* callbacks_ = nullptr;  // guarded by locked_bit
    std::thread::id notifying_thread_;                          // guarded by locked_bit
};

class inplace_stop_token {
public:
    template <class F>
    using callback_type = inplace_stop_callback<F>;

    inplace_stop_token() noexcept = default;

    [[nodiscard]] bool stop_requested() const noexcept { return src_ != nullptr && src_->stop_requested(); }
    [[nodiscard]] bool stop_possible() const noexcept { return src_ != nullptr; }
    void swap(inplace_stop_token& o) noexcept { std::swap(src_, o.src_); }
    friend bool operator==(const inplace_stop_token&, const inplace_stop_token&) noexcept = default;

private:
    friend class inplace_stop_source;
    template <class>
    friend class inplace_stop_callback;
    explicit inplace_stop_token(const inplace_stop_source* s) noexcept : src_(s) {}

    const inplace_stop_source* src_ = nullptr;
};

inline inplace_stop_token inplace_stop_source::get_token() const noexcept { return inplace_stop_token(this); }

/// Runs `F` once when stop is requested on the token's source (at once, in the
/// constructor, if it was requested before). Not copyable or movable.
template <class F>
class inplace_stop_callback : private detail::stop_callback_base {
public:
    using callback_type = F;

    template <class C>
        requires std::constructible_from<F, C>
    explicit inplace_stop_callback(inplace_stop_token token, C&& c) noexcept(std::is_nothrow_constructible_v<F, C>)
        : fn_(std::forward<C>(c)) {
        execute = &run;
        if (token.src_ != nullptr) {
            if (token.src_->try_add(this)) {
                src_ = token.src_;
            } else {
                std::move(fn_)();
            }
        }
    }
    inplace_stop_callback(const inplace_stop_callback&) = delete;
    inplace_stop_callback& operator=(const inplace_stop_callback&) = delete;
    ~inplace_stop_callback() {
        if (src_ != nullptr) src_->remove(this);
    }

private:
    static void run(detail::stop_callback_base* base) noexcept {
        std::move(static_cast<inplace_stop_callback*>(base)->fn_)();
    }

    [[no_unique_address]] F fn_;
    const inplace_stop_source* src_ = nullptr;
};

template <class F>
inplace_stop_callback(inplace_stop_token, F) -> inplace_stop_callback<F>;

/// A token that never asks to stop: adaptors that see it register nothing.
class never_stop_token {
    struct callback {
        template <class C>
        explicit callback(never_stop_token /*unused*/, C&& /*unused*/) noexcept {}
    };

public:
    template <class F>
    using callback_type = callback;

    [[nodiscard]] static constexpr bool stop_requested() noexcept { return false; }
    [[nodiscard]] static constexpr bool stop_possible() noexcept { return false; }
    friend constexpr bool operator==(never_stop_token, never_stop_token) noexcept { return true; }
};

namespace detail {
template <class Token, class F>
struct stop_callback_for {
    using type = typename Token::template callback_type<F>;
};
template <class F>
struct stop_callback_for<std::stop_token, F> {
    using type = std::stop_callback<F>;
};
}  // namespace detail

/// The callback type that registers F with a token of type Token.
template <class Token, class F>
using stop_callback_for_t = typename detail::stop_callback_for<Token, F>::type;

/// A token whose stop can be asked and observed, with a callback type for any callable.
template <class Token>
concept stoppable_token = std::copy_constructible<Token> && std::equality_comparable<Token> &&
                          requires(const Token& t) {
                              { t.stop_requested() } noexcept -> std::same_as<bool>;
                              { t.stop_possible() } noexcept -> std::same_as<bool>;
                              typename stop_callback_for_t<Token, void (*)()>;
                          };

/// A token whose type says that stop is never possible (never_stop_token).
template <class Token>
concept unstoppable_token = stoppable_token<Token> && requires {
    requires std::bool_constant<(!Token::stop_possible())>::value;
};

}  // namespace loom
