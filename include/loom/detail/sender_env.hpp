// Environments and queries of loom's senders (C++26 [exec.envs], [exec.queries]):
// a receiver's environment answers queries such as get_stop_token and get_scheduler; a
// sender's environment (its attributes) answers get_completion_scheduler<Tag>.
//
//   prop(query, value)     an environment answering one query
//   env(e1, e2, ...)       the first of several environments that answers a query
//   get_env(x)             x.get_env(), or env<> when x has none
//
// Adaptors pass their receiver's environment on to the senders they connect, whole.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "loom/stop_token.hpp"

namespace loom::execution::experimental {

namespace detail {
template <class Env, class Query>
concept has_query = requires(const Env& e) { e.query(Query{}); };
}  // namespace detail

// ---- environments ---------------------------------------------------------------------

/// An environment that answers `Query` with a copy of `value` (C++26 std::execution::prop).
template <class Query, class Value>
struct prop {
    [[no_unique_address]] Query query_tag;
    Value value;

    constexpr const Value& query(Query /*unused*/) const noexcept { return value; }
};
template <class Query, class Value>
prop(Query, Value) -> prop<Query, std::unwrap_reference_t<Value>>;

/// The first of `Envs` that answers a query answers it (C++26 std::execution::env);
/// env<> answers nothing.
template <class... Envs>
struct env;

template <>
struct env<> {};

template <class First, class... Rest>
struct env<First, Rest...> {
    constexpr env(First f, Rest... r) : first(std::move(f)), rest(std::move(r)...) {}

    template <class Query>
        requires detail::has_query<First, Query>
    constexpr decltype(auto) query(Query q) const noexcept(noexcept(first.query(q))) {
        return first.query(q);
    }
    template <class Query>
        requires(!detail::has_query<First, Query> && detail::has_query<env<Rest...>, Query>)
    constexpr decltype(auto) query(Query q) const noexcept(noexcept(rest.query(q))) {
        return rest.query(q);
    }

    First first;
    env<Rest...> rest;
};
template <class... Envs>
env(Envs...) -> env<Envs...>;

/// The environment of a receiver that has none (P2300R10's name).
using empty_env = env<>;

// ---- get_env ------------------------------------------------------------------------------

struct get_env_t {
    template <class T>
    constexpr decltype(auto) operator()(const T& t) const noexcept {
        if constexpr (requires { t.get_env(); }) {
            static_assert(noexcept(t.get_env()), "get_env() must be noexcept");
            return t.get_env();
        } else {
            return env<>{};
        }
    }
};
inline constexpr get_env_t get_env{};

template <class T>
using env_of_t = decltype(get_env(std::declval<T>()));

// ---- queries ----------------------------------------------------------------------------

/// The stop token of a receiver's environment; never_stop_token if it has none.
struct get_stop_token_t {
    template <class Env>
    constexpr auto operator()(const Env& e) const noexcept {
        if constexpr (detail::has_query<Env, get_stop_token_t>) {
            return e.query(get_stop_token_t{});
        } else {
            return never_stop_token{};
        }
    }
};
inline constexpr get_stop_token_t get_stop_token{};

template <class T>
using stop_token_of_t = std::remove_cvref_t<decltype(get_stop_token(std::declval<T>()))>;

/// The scheduler a receiver's environment names for the work it starts.
struct get_scheduler_t {
    template <class Env>
        requires detail::has_query<Env, get_scheduler_t>
    constexpr auto operator()(const Env& e) const noexcept {
        return e.query(get_scheduler_t{});
    }
};
inline constexpr get_scheduler_t get_scheduler{};

/// The scheduler on whose execution resource a sender completes through channel Tag
/// (a query of the sender's environment).
template <class Tag>
struct get_completion_scheduler_t {
    template <class Env>
        requires detail::has_query<Env, get_completion_scheduler_t>
    constexpr auto operator()(const Env& e) const noexcept {
        return e.query(get_completion_scheduler_t{});
    }
};
template <class Tag>
inline constexpr get_completion_scheduler_t<Tag> get_completion_scheduler{};

enum class forward_progress_guarantee { concurrent, parallel, weakly_parallel };

/// What a scheduler promises about the progress of the work it runs.
struct get_forward_progress_guarantee_t {
    template <class Sch>
    constexpr forward_progress_guarantee operator()(const Sch& s) const noexcept {
        if constexpr (detail::has_query<Sch, get_forward_progress_guarantee_t>) {
            return s.query(get_forward_progress_guarantee_t{});
        } else {
            return forward_progress_guarantee::weakly_parallel;
        }
    }
};
inline constexpr get_forward_progress_guarantee_t get_forward_progress_guarantee{};

}  // namespace loom::execution::experimental
