// just(vs...), just_error(e), just_stopped(): senders that complete at once, in start(),
// with the values, the error, or "stopped" they were given.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class Tag, class... Ts>
class just_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures = experimental::completion_signatures<Tag(Ts...)>;

    template <class... As>
    explicit just_sender(std::in_place_t /*unused*/, As&&... as) : values_(std::forward<As>(as)...) {}

    template <class R>
    struct operation {
        using operation_state_concept = operation_state_t;
        R rcvr;
        std::tuple<Ts...> values;

        void start() & noexcept {
            std::apply([this](Ts&... vs) { Tag{}(std::move(rcvr), std::move(vs)...); }, values);
        }
    };

    template <receiver R>
    operation<std::decay_t<R>> connect(R&& r) && noexcept((std::is_nothrow_move_constructible_v<Ts> && ...)) {
        return {std::forward<R>(r), std::move(values_)};
    }
    template <receiver R>
        requires(std::copy_constructible<Ts> && ...)
    operation<std::decay_t<R>> connect(R&& r) const& noexcept((std::is_nothrow_copy_constructible_v<Ts> && ...)) {
        return {std::forward<R>(r), values_};
    }

private:
    std::tuple<Ts...> values_;
};

}  // namespace detail

struct just_t {
    template <class... Vs>
        requires(std::move_constructible<std::decay_t<Vs>> && ...)
    auto operator()(Vs&&... vs) const {
        return detail::just_sender<set_value_t, std::decay_t<Vs>...>(std::in_place, std::forward<Vs>(vs)...);
    }
};
struct just_error_t {
    template <class E>
        requires std::move_constructible<std::decay_t<E>>
    auto operator()(E&& e) const {
        return detail::just_sender<set_error_t, std::decay_t<E>>(std::in_place, std::forward<E>(e));
    }
};
struct just_stopped_t {
    auto operator()() const noexcept { return detail::just_sender<set_stopped_t>(std::in_place); }
};

/// A sender that completes with set_value(vs...) when started.
inline constexpr just_t just{};
/// A sender that completes with set_error(e) when started.
inline constexpr just_error_t just_error{};
/// A sender that completes with set_stopped() when started.
inline constexpr just_stopped_t just_stopped{};

}  // namespace loom::execution::experimental
