// let_value(f), let_error(f), let_stopped(f): on the completion of one channel, f gets
// the (decay-copied) arguments as lvalues and returns a sender, which is connected and
// started in the same operation; its completion is the result. The arguments live in the
// operation state until it ends, so the new sender may refer to them. The other channels
// pass through; an exception thrown by f or by connect is sent as
// set_error(std::exception_ptr).
#pragma once

#include <exception>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_storage.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class Tag, class F>
struct let_signature {
    // The sender f returns for arguments As...
    template <class... As>
    using result_sender = std::invoke_result_t<F, std::decay_t<As>&...>;

    template <class Sig>
    struct apply {
        using type = completion_signatures<Sig>;
    };
    template <class... As>
    struct apply<Tag(As...)> {
        using type = completion_signatures_of_t<result_sender<As...>>;
    };

    template <class Sig>
    struct args {
        using type = type_list<>;
    };
    template <class... As>
    struct args<Tag(As...)> {
        using type = type_list<std::tuple<std::decay_t<As>...>>;
    };
    template <class Sig>
    struct senders {
        using type = type_list<>;
    };
    template <class... As>
    struct senders<Tag(As...)> {
        using type = type_list<result_sender<As...>>;
    };
};

template <class L>
struct list_to_arg_variant;
template <class... Ts>
struct list_to_arg_variant<type_list<Ts...>> {
    using type = std::variant<std::monostate, Ts...>;
};

template <class L, template <class> class Op>
struct list_to_op_slot;
template <class... Ss, template <class> class Op>
struct list_to_op_slot<type_list<Ss...>, Op> {
    using type = op_slot<Op<Ss>...>;
};

template <class Tag, class S, class F>
class let_sender {
    using sig = let_signature<Tag, F>;
    using child_sigs = completion_signatures_of_t<S>;

    template <class Sigs>
    struct parts;
    template <class... Sigs>
    struct parts<completion_signatures<Sigs...>> {
        using arg_lists = typename concat_lists<typename sig::template args<Sigs>::type...>::type;
        using senders = typename concat_lists<typename sig::template senders<Sigs>::type...>::type;
    };
    template <class L>
    struct flatten_unique;
    template <class... Ts>
    struct flatten_unique<type_list<Ts...>> {
        using type = typename unique_into<type_list<>, Ts...>::type;
    };

    using arg_variant =
        typename list_to_arg_variant<typename flatten_unique<typename parts<child_sigs>::arg_lists>::type>::type;
    using result_senders = typename flatten_unique<typename parts<child_sigs>::senders>::type;

public:
    using sender_concept = sender_t;
    using completion_signatures =
        merge_signatures_t<transform_signatures_t<child_sigs, sig::template apply>,
                           experimental::completion_signatures<set_error_t(std::exception_ptr)>>;

    template <class S2, class F2>
    let_sender(S2&& s, F2&& f) : sndr_(std::forward<S2>(s)), fn_(std::forward<F2>(f)) {}

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
        // The receiver of the sender f returned: the result goes to the outer receiver.
        struct result_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                experimental::set_value(std::move(op->rcvr_), std::forward<As>(as)...);
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                experimental::set_error(std::move(op->rcvr_), std::forward<E>(e));
            }
            void set_stopped() && noexcept { experimental::set_stopped(std::move(op->rcvr_)); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };
        template <class Sndr>
        using result_op = connect_result_t<Sndr, result_receiver>;

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
                complete_or_send_error(std::move(rcvr_), [&] {
                    using args_t = std::tuple<std::decay_t<As>...>;
                    auto& args = args_.template emplace<args_t>(std::forward<As>(as)...);
                    using Sndr = std::invoke_result_t<F, std::decay_t<As>&...>;
                    auto& op = second_.template emplace<result_op<Sndr>>([&] {
                        return experimental::connect(std::apply(std::move(fn_), args), result_receiver{this});
                    });
                    experimental::start(op);
                });
            } else {
                tag(std::move(rcvr_), std::forward<As>(as)...);
            }
        }

        R rcvr_;
        [[no_unique_address]] F fn_;
        arg_variant args_;
        typename list_to_op_slot<result_senders, result_op>::type second_;
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

private:
    S sndr_;
    [[no_unique_address]] F fn_;
};

template <class Tag>
using let_adaptor = fn_adaptor<let_sender, Tag>;

}  // namespace detail

using let_value_t = detail::let_adaptor<set_value_t>;
using let_error_t = detail::let_adaptor<set_error_t>;
using let_stopped_t = detail::let_adaptor<set_stopped_t>;

/// let_value(sndr, f): f(values&...) returns the sender whose completion is the result.
inline constexpr let_value_t let_value{};
/// let_error(sndr, f): f(error&) returns the sender whose completion is the result.
inline constexpr let_error_t let_error{};
/// let_stopped(sndr, f): f() returns the sender whose completion is the result.
inline constexpr let_stopped_t let_stopped{};

}  // namespace loom::execution::experimental
