// The shape shared by adaptors that only rewrite completions (into_variant,
// stopped_as_optional, stopped_as_error, write_env): one child, connected to a receiver
// that hands every completion to a handler object together with the outer receiver.
//
//   Handler: h(tag, std::move(rcvr), args...) noexcept   sends what tag(args...) becomes
//            h.env(outer_env)                            the child's environment (optional)
//   Sigs:    the adaptor's completion signatures
#pragma once

#include <type_traits>
#include <utility>

#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental::detail {

template <class Handler, class Env>
auto handler_env(const Handler& h, Env&& e) noexcept {
    if constexpr (requires { h.env(std::forward<Env>(e)); }) {
        return h.env(std::forward<Env>(e));
    } else {
        return std::forward<Env>(e);
    }
}

template <class CvS, class R, class Handler>
class adapted_operation {
    using child_env = std::decay_t<decltype(handler_env(std::declval<const Handler&>(), std::declval<env_of_t<R>>()))>;

    struct child_receiver {
        using receiver_concept = receiver_t;
        adapted_operation* op;

        template <class... As>
        void set_value(As&&... as) && noexcept {
            op->handler_(set_value_t{}, std::move(op->rcvr_), std::forward<As>(as)...);
        }
        template <class E>
        void set_error(E&& e) && noexcept {
            op->handler_(set_error_t{}, std::move(op->rcvr_), std::forward<E>(e));
        }
        void set_stopped() && noexcept { op->handler_(set_stopped_t{}, std::move(op->rcvr_)); }
        child_env get_env() const noexcept { return handler_env(op->handler_, experimental::get_env(op->rcvr_)); }
    };

public:
    using operation_state_concept = operation_state_t;

    adapted_operation(CvS&& s, Handler h, R r)
        : rcvr_(std::move(r)),
          handler_(std::move(h)),
          child_(experimental::connect(std::forward<CvS>(s), child_receiver{this})) {}
    adapted_operation(const adapted_operation&) = delete;
    adapted_operation& operator=(const adapted_operation&) = delete;

    void start() & noexcept { experimental::start(child_); }

private:
    R rcvr_;
    [[no_unique_address]] Handler handler_;
    connect_result_t<CvS, child_receiver> child_;
};

template <class S, class Handler, class Sigs>
class adapted_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures = Sigs;

    template <class S2>
    adapted_sender(S2&& s, Handler h) : sndr_(std::forward<S2>(s)), handler_(std::move(h)) {}

    template <receiver R>
    adapted_operation<S, std::decay_t<R>, Handler> connect(R&& r) && {
        return {std::move(sndr_), std::move(handler_), std::forward<R>(r)};
    }
    template <receiver R>
        requires std::copy_constructible<S> && std::copy_constructible<Handler>
    adapted_operation<const S&, std::decay_t<R>, Handler> connect(R&& r) const& {
        return {sndr_, handler_, std::forward<R>(r)};
    }

    env_of_t<const S&> get_env() const noexcept { return experimental::get_env(sndr_); }

private:
    S sndr_;
    [[no_unique_address]] Handler handler_;
};

}  // namespace loom::execution::experimental::detail
