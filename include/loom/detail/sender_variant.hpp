// Adaptors that rewrite completions:
//   into_variant(sndr)          values as one std::variant<std::tuple<decayed values>...>
//   stopped_as_optional(sndr)   the one value T as std::optional<T>; stopped as nullopt
//   stopped_as_error(sndr, e)   stopped as set_error(e)
//   write_env(sndr, env)        sndr sees `env` in front of its receiver's environment
//                               (a stop token from outside: prop(get_stop_token, token))
#pragma once

#include <exception>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_adapted.hpp"
#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental {

namespace detail {

// ---- into_variant --------------------------------------------------------------------------

template <class Sig>
struct non_value_signature {
    using type = completion_signatures<Sig>;
};
template <class... As>
struct non_value_signature<set_value_t(As...)> {
    using type = completion_signatures<>;
};

template <class S>
struct into_variant_handler {
    using variant_type = value_types_of_t<S>;
    using signatures =
        merge_signatures_t<completion_signatures<set_value_t(variant_type)>,
                           transform_signatures_t<completion_signatures_of_t<S>, non_value_signature>,
                           completion_signatures<set_error_t(std::exception_ptr)>>;

    template <class Tag, class R, class... As>
    void operator()(Tag tag, R&& r, As&&... as) const noexcept {
        if constexpr (std::is_same_v<Tag, set_value_t>) {
            complete_or_send_error(std::forward<R>(r), [&] {
                set_value(std::forward<R>(r),
                          variant_type(std::in_place_type<decayed_tuple<As...>>, std::forward<As>(as)...));
            });
        } else {
            tag(std::forward<R>(r), std::forward<As>(as)...);
        }
    }
};

// ---- stopped_as_optional -----------------------------------------------------------------

template <class S>
struct stopped_as_optional_handler {
    using value_lists = channel_args_t<set_value_t, completion_signatures_of_t<S>>;
    template <class L>
    struct single_value {
        static_assert(sizeof(L) == 0, "stopped_as_optional: the sender must send exactly one value type");
    };
    template <class T>
    struct single_value<type_list<type_list<T>>> {
        using type = std::decay_t<T>;
    };
    using value_type = typename single_value<value_lists>::type;
    using optional_type = std::optional<value_type>;

    template <class Sig>
    struct rewrite {
        using type = completion_signatures<Sig>;
    };
    template <class... As>
    struct rewrite<set_value_t(As...)> {
        using type = completion_signatures<set_value_t(optional_type)>;
    };
    using signatures = merge_signatures_t<transform_signatures_t<completion_signatures_of_t<S>, rewrite>,
                                          completion_signatures<set_value_t(optional_type)>,
                                          completion_signatures<set_error_t(std::exception_ptr)>>;

    template <class Tag, class R, class... As>
    void operator()(Tag tag, R&& r, As&&... as) const noexcept {
        if constexpr (std::is_same_v<Tag, set_value_t>) {
            complete_or_send_error(std::forward<R>(r), [&] {
                set_value(std::forward<R>(r), optional_type(std::in_place, std::forward<As>(as)...));
            });
        } else if constexpr (std::is_same_v<Tag, set_stopped_t>) {
            set_value(std::forward<R>(r), optional_type());
        } else {
            tag(std::forward<R>(r), std::forward<As>(as)...);
        }
    }
};

// ---- stopped_as_error ----------------------------------------------------------------------

template <class S, class E>
struct stopped_as_error_handler {
    template <class Sig>
    struct rewrite {
        using type = completion_signatures<Sig>;
    };
    template <class... None>
    struct rewrite<set_stopped_t(None...)> {
        using type = completion_signatures<set_error_t(E)>;
    };
    using signatures = transform_signatures_t<completion_signatures_of_t<S>, rewrite>;

    E error;

    template <class Tag, class R, class... As>
    void operator()(Tag tag, R&& r, As&&... as) noexcept {
        if constexpr (std::is_same_v<Tag, set_stopped_t>) {
            set_error(std::forward<R>(r), std::move(error));
        } else {
            tag(std::forward<R>(r), std::forward<As>(as)...);
        }
    }
};

// ---- write_env -------------------------------------------------------------------------------

template <class S, class Env>
struct write_env_handler {
    using signatures = completion_signatures_of_t<S>;

    Env extra;

    template <class Tag, class R, class... As>
    void operator()(Tag tag, R&& r, As&&... as) const noexcept {
        tag(std::forward<R>(r), std::forward<As>(as)...);
    }
    template <class Outer>
    auto env(Outer&& outer) const noexcept {
        return experimental::env<Env, std::decay_t<Outer>>(extra, std::forward<Outer>(outer));
    }
};

template <class S, class Handler>
using adapted_t = adapted_sender<S, Handler, typename Handler::signatures>;

}  // namespace detail

struct into_variant_t {
    template <sender S>
    auto operator()(S&& s) const {
        using handler = detail::into_variant_handler<std::decay_t<S>>;
        return detail::adapted_t<std::decay_t<S>, handler>(std::forward<S>(s), handler{});
    }
    auto operator()() const noexcept { return detail::bind_closure<into_variant_t>(); }
};
struct stopped_as_optional_t {
    template <sender S>
    auto operator()(S&& s) const {
        using handler = detail::stopped_as_optional_handler<std::decay_t<S>>;
        return detail::adapted_t<std::decay_t<S>, handler>(std::forward<S>(s), handler{});
    }
    auto operator()() const noexcept { return detail::bind_closure<stopped_as_optional_t>(); }
};
struct stopped_as_error_t {
    template <sender S, class E>
    auto operator()(S&& s, E&& e) const {
        using handler = detail::stopped_as_error_handler<std::decay_t<S>, std::decay_t<E>>;
        return detail::adapted_t<std::decay_t<S>, handler>(std::forward<S>(s), handler{std::forward<E>(e)});
    }
    template <class E>
    auto operator()(E&& e) const {
        return detail::bind_closure<stopped_as_error_t>(std::forward<E>(e));
    }
};
struct write_env_t {
    template <sender S, class Env>
    auto operator()(S&& s, Env&& e) const {
        using handler = detail::write_env_handler<std::decay_t<S>, std::decay_t<Env>>;
        return detail::adapted_t<std::decay_t<S>, handler>(std::forward<S>(s), handler{std::forward<Env>(e)});
    }
    template <class Env>
    auto operator()(Env&& e) const {
        return detail::bind_closure<write_env_t>(std::forward<Env>(e));
    }
};

/// into_variant(sndr): sends one std::variant of std::tuples of sndr's (decayed) values.
inline constexpr into_variant_t into_variant{};
/// stopped_as_optional(sndr): sends std::optional of sndr's one value; nullopt if stopped.
inline constexpr stopped_as_optional_t stopped_as_optional{};
/// stopped_as_error(sndr, e): sends set_error(e) where sndr is stopped.
inline constexpr stopped_as_error_t stopped_as_error{};
/// write_env(sndr, env): sndr's receiver environment answers env's queries first.
inline constexpr write_env_t write_env{};

}  // namespace loom::execution::experimental
