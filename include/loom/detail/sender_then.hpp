// then(f), upon_error(f), upon_stopped(f): f runs on the completion of one channel
// (values, error, stopped) in the context that completed, and what it returns is sent
// as a value (nothing for void). The other channels pass through; an exception thrown
// by f is sent as set_error(std::exception_ptr).
#pragma once

#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class R>
struct value_signature_for {
    using type = completion_signatures<set_value_t(R)>;
};
template <>
struct value_signature_for<void> {
    using type = completion_signatures<set_value_t()>;
};
/// set_value_t(R), or set_value_t() for void.
template <class R>
using value_signature = typename value_signature_for<R>::type;

template <class Tag, class F>
struct then_signature {
    template <class Sig>
    struct apply {
        using type = completion_signatures<Sig>;  // another channel: passed through
    };
    template <class... As>
    struct apply<Tag(As...)> {
        using type = value_signature<std::invoke_result_t<F, As...>>;
    };

    template <class Sig>
    struct nothrow : std::true_type {};
    template <class... As>
    struct nothrow<Tag(As...)> : std::bool_constant<std::is_nothrow_invocable_v<F, As...>> {};
};

template <class Tag, class F, class Sigs>
struct then_completions;
template <class Tag, class F, class... Sigs>
struct then_completions<Tag, F, completion_signatures<Sigs...>> {
    using sig = then_signature<Tag, F>;
    using type = merge_signatures_t<
        transform_signatures_t<completion_signatures<Sigs...>, sig::template apply>,
        std::conditional_t<(sig::template nothrow<Sigs>::value && ...), completion_signatures<>,
                           completion_signatures<set_error_t(std::exception_ptr)>>>;
};

/// Sends what std::invoke(f, as...) returns, or the exception it throws.
template <class R, class F, class... As>
void send_result(R&& r, F&& f, As&&... as) noexcept {
    using Ret = std::invoke_result_t<F, As...>;
    auto body = [&] {
        if constexpr (std::is_void_v<Ret>) {
            std::invoke(std::forward<F>(f), std::forward<As>(as)...);
            set_value(std::forward<R>(r));
        } else {
            set_value(std::forward<R>(r), std::invoke(std::forward<F>(f), std::forward<As>(as)...));
        }
    };
    if constexpr (std::is_nothrow_invocable_v<F, As...>) {
        body();
    } else {
        complete_or_send_error(std::forward<R>(r), body);
    }
}

template <class Tag, class S, class F>
class then_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures = typename then_completions<Tag, F, completion_signatures_of_t<S>>::type;

    template <class S2, class F2>
    then_sender(S2&& s, F2&& f) : sndr_(std::forward<S2>(s)), fn_(std::forward<F2>(f)) {}

    template <class CvS, class R>
    class operation {
        struct child_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                op->complete(set_value_t{}, std::forward<As>(as)...);
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                op->complete(set_error_t{}, std::forward<E>(e));
            }
            void set_stopped() && noexcept { op->complete(set_stopped_t{}); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };

    public:
        using operation_state_concept = operation_state_t;

        operation(CvS&& s, F f, R r)
            : rcvr_(std::move(r)),
              fn_(std::move(f)),
              child_(experimental::connect(std::forward<CvS>(s), child_receiver{this})) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept { experimental::start(child_); }

    private:
        template <class T, class... As>
        void complete(T tag, As&&... as) noexcept {
            if constexpr (std::is_same_v<T, Tag>) {
                send_result(std::move(rcvr_), std::move(fn_), std::forward<As>(as)...);
            } else {
                tag(std::move(rcvr_), std::forward<As>(as)...);
            }
        }

        R rcvr_;
        [[no_unique_address]] F fn_;
        connect_result_t<CvS, child_receiver> child_;
    };

    template <receiver R>
    operation<S, std::decay_t<R>> connect(R&& r) && {
        return {std::move(sndr_), std::move(fn_), std::forward<R>(r)};
    }
    template <receiver R>
        requires std::copy_constructible<S> && std::copy_constructible<F>
    operation<const S&, std::decay_t<R>> connect(R&& r) const& {
        return {sndr_, fn_, std::forward<R>(r)};
    }

    env_of_t<const S&> get_env() const noexcept { return experimental::get_env(sndr_); }

private:
    S sndr_;
    [[no_unique_address]] F fn_;
};

template <class Tag>
using then_adaptor = fn_adaptor<then_sender, Tag>;

}  // namespace detail

using then_t = detail::then_adaptor<set_value_t>;
using upon_error_t = detail::then_adaptor<set_error_t>;
using upon_stopped_t = detail::then_adaptor<set_stopped_t>;

/// then(sndr, f): sends f(values...).
inline constexpr then_t then{};
/// upon_error(sndr, f): sends f(error) as a value.
inline constexpr upon_error_t upon_error{};
/// upon_stopped(sndr, f): sends f() as a value when sndr is stopped.
inline constexpr upon_stopped_t upon_stopped{};

}  // namespace loom::execution::experimental
