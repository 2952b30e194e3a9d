// The vocabulary of senders and receivers (C++26 [exec.snd.concepts], [exec.recv],
// [exec.opstate], [exec.sched]; P2300R10's member-function customisation):
//
//   a receiver   has `using receiver_concept = receiver_t;`, the members
//                set_value(Vs...) &&, set_error(E) &&, set_stopped() && (noexcept) for
//                the completions it accepts, and optionally get_env() const noexcept
//   a sender     has `using sender_concept = sender_t;`, `using completion_signatures
//                = completion_signatures<...>;`, connect(receiver) (on an rvalue, and on
//                a const lvalue when it can be connected more than once), and
//                optionally get_env() const noexcept (its attributes)
//   an operation state  has `using operation_state_concept = operation_state_t;` and
//                start() & noexcept; it must stay where connect made it until it
//                completes, and the receiver's completion may destroy it
//   a scheduler  has `using scheduler_concept = scheduler_t;`, schedule() returning a
//                sender, and ==
//
// Completion signatures are a member type of the sender and do not depend on the
// receiver's environment (the simpler scheme this library documents in
// docs/senders.md); get_completion_signatures(sndr, env) returns that member.
#pragma once

#include <concepts>
#include <exception>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_env.hpp"
#include "loom/detail/sender_signatures.hpp"

namespace loom::execution::experimental {

struct sender_t {};
struct receiver_t {};
struct operation_state_t {};
struct scheduler_t {};

// ---- completion functions ---------------------------------------------------------------

struct set_value_t {
    template <class R, class... Vs>
        requires requires(R&& r, Vs&&... vs) { std::forward<R>(r).set_value(std::forward<Vs>(vs)...); }
    constexpr void operator()(R&& r, Vs&&... vs) const noexcept {
        static_assert(noexcept(std::forward<R>(r).set_value(std::forward<Vs>(vs)...)), "set_value must be noexcept");
        std::forward<R>(r).set_value(std::forward<Vs>(vs)...);
    }
};
struct set_error_t {
    template <class R, class E>
        requires requires(R&& r, E&& e) { std::forward<R>(r).set_error(std::forward<E>(e)); }
    constexpr void operator()(R&& r, E&& e) const noexcept {
        static_assert(noexcept(std::forward<R>(r).set_error(std::forward<E>(e))), "set_error must be noexcept");
        std::forward<R>(r).set_error(std::forward<E>(e));
    }
};
struct set_stopped_t {
    template <class R>
        requires requires(R&& r) { std::forward<R>(r).set_stopped(); }
    constexpr void operator()(R&& r) const noexcept {
        static_assert(noexcept(std::forward<R>(r).set_stopped()), "set_stopped must be noexcept");
        std::forward<R>(r).set_stopped();
    }
};
inline constexpr set_value_t set_value{};
inline constexpr set_error_t set_error{};
inline constexpr set_stopped_t set_stopped{};

// ---- connect, start, schedule -----------------------------------------------------------

struct start_t {
    template <class O>
        requires requires(O& o) { o.start(); }
    constexpr void operator()(O& o) const noexcept {
        static_assert(noexcept(o.start()), "start must be noexcept");
        o.start();
    }
};
inline constexpr start_t start{};

struct connect_t {
    template <class S, class R>
        requires requires(S&& s, R&& r) { std::forward<S>(s).connect(std::forward<R>(r)); }
    constexpr auto operator()(S&& s, R&& r) const
        noexcept(noexcept(std::forward<S>(s).connect(std::forward<R>(r)))) {
        return std::forward<S>(s).connect(std::forward<R>(r));
    }
};
inline constexpr connect_t connect{};

template <class S, class R>
using connect_result_t = decltype(connect(std::declval<S>(), std::declval<R>()));

struct schedule_t {
    template <class Sch>
        requires requires(Sch&& s) { std::forward<Sch>(s).schedule(); }
    constexpr auto operator()(Sch&& s) const noexcept(noexcept(std::forward<Sch>(s).schedule())) {
        return std::forward<Sch>(s).schedule();
    }
};
inline constexpr schedule_t schedule{};

template <class Sch>
using schedule_result_t = decltype(schedule(std::declval<Sch>()));

// ---- completion signatures of a sender --------------------------------------------------

/// The member `completion_signatures` of the sender (the environment does not change it).
template <class S, class Env = env<>>
    requires requires { typename std::remove_cvref_t<S>::completion_signatures; }
using completion_signatures_of_t = typename std::remove_cvref_t<S>::completion_signatures;

struct get_completion_signatures_t {
    template <class S, class Env = env<>>
    constexpr auto operator()(S&& /*unused*/, const Env& /*unused*/ = {}) const noexcept
        -> completion_signatures_of_t<S, Env> {
        return {};
    }
};
inline constexpr get_completion_signatures_t get_completion_signatures{};

/// Tuple<Vs...> for each set_value_t(Vs...) of S, gathered in Variant<...>.
template <class S, class Env = env<>, template <class...> class Tuple = decayed_tuple,
          template <class...> class Variant = variant_or_empty>
using value_types_of_t = gather_signatures_t<set_value_t, completion_signatures_of_t<S, Env>, Tuple, Variant>;

/// The error types of S, gathered in Variant<...>.
template <class S, class Env = env<>, template <class...> class Variant = variant_or_empty>
using error_types_of_t =
    gather_signatures_t<set_error_t, completion_signatures_of_t<S, Env>, detail::single_t, Variant>;

/// Whether S may complete with set_stopped.
template <class S, class Env = env<>>
inline constexpr bool sends_stopped =
    !std::is_same_v<type_list<>, gather_signatures_t<set_stopped_t, completion_signatures_of_t<S, Env>, type_list,
                                                     type_list>>;

// ---- concepts ----------------------------------------------------------------------------

namespace detail {
template <class S>
concept declares_sender = requires { typename S::sender_concept; } &&
                          std::derived_from<typename S::sender_concept, sender_t>;
}  // namespace detail

template <class S>
inline constexpr bool enable_sender = detail::declares_sender<S>;

template <class S>
concept sender = enable_sender<std::remove_cvref_t<S>> &&
                 requires(const std::remove_cvref_t<S>& s) { get_env(s); } &&
                 std::move_constructible<std::remove_cvref_t<S>> &&
                 std::constructible_from<std::remove_cvref_t<S>, S>;

template <class S, class Env = env<>>
concept sender_in = sender<S> && requires { typename completion_signatures_of_t<S, Env>; };

template <class S>
inline constexpr bool is_sender_v = sender<S>;

template <class R>
concept receiver = requires { typename std::remove_cvref_t<R>::receiver_concept; } &&
                   std::derived_from<typename std::remove_cvref_t<R>::receiver_concept, receiver_t> &&
                   requires(const std::remove_cvref_t<R>& r) { get_env(r); } &&
                   std::move_constructible<std::remove_cvref_t<R>> &&
                   std::constructible_from<std::remove_cvref_t<R>, R>;

namespace detail {
template <class R, class Sig>
struct accepts_completion : std::false_type {};
template <class R, class Tag, class... As>
struct accepts_completion<R, Tag(As...)> : std::bool_constant<std::is_invocable_v<Tag, R, As...>> {};
template <class R, class Sigs>
struct accepts_all;
template <class R, class... Sigs>
struct accepts_all<R, completion_signatures<Sigs...>>
    : std::bool_constant<(accepts_completion<std::remove_cvref_t<R>, Sigs>::value && ...)> {};
}  // namespace detail

template <class R, class Completions>
concept receiver_of = receiver<R> && detail::accepts_all<R, Completions>::value;

template <class S, class R>
concept sender_to = sender_in<S, env_of_t<R>> && receiver_of<R, completion_signatures_of_t<S, env_of_t<R>>> &&
                    requires(S&& s, R&& r) { connect(std::forward<S>(s), std::forward<R>(r)); };

template <class O>
concept operation_state = std::is_object_v<O> && requires { typename O::operation_state_concept; } &&
                          std::derived_from<typename O::operation_state_concept, operation_state_t> &&
                          requires(O& o) { start(o); };

template <class S>
concept scheduler = requires { typename std::remove_cvref_t<S>::scheduler_concept; } &&
                    std::derived_from<typename std::remove_cvref_t<S>::scheduler_concept, scheduler_t> &&
                    requires(S&& s) {
                        { schedule(std::forward<S>(s)) } -> sender;
                    } && std::equality_comparable<std::remove_cvref_t<S>> &&
                    std::copy_constructible<std::remove_cvref_t<S>>;

// ---- helpers shared by the adaptors ---------------------------------------------------------

namespace detail {

/// The error as an exception_ptr, for places that can hold only that (futures, any_sender,
/// co_await).
template <class E>
std::exception_ptr as_exception_ptr(E&& e) noexcept {
    if constexpr (std::is_same_v<std::remove_cvref_t<E>, std::exception_ptr>) {
        return std::forward<E>(e);
    } else {
        return std::make_exception_ptr(std::forward<E>(e));
    }
}

/// Runs body(), which completes `r`; if it throws instead, sends the exception with
/// set_error. The receiver is completed after the catch block has ended: a handler still
/// open while the receiver runs would drop its hold on the exception object only after
/// the receiver may have handed the exception_ptr to another thread.
template <class R, class Body>
void complete_or_send_error(R&& r, Body&& body) noexcept {
    std::exception_ptr error;
    try {
        std::forward<Body>(body)();
        return;
    } catch (...) {
        error = std::current_exception();
    }
    set_error(std::forward<R>(r), std::move(error));
}

/// S const& for an lvalue connect, S for an rvalue one: what the child is connected as.
template <class Self, class S>
using member_t = std::conditional_t<std::is_lvalue_reference_v<Self>, const S&, S>;

}  // namespace detail

}  // namespace loom::execution::experimental
