// when_all(sndrs...): starts every child and completes when all have completed: with all
// their values (decay-copied, in order) if every child sent values; otherwise with the
// first error, or else stopped. Each child may send at most one kind of value
// (one set_value signature).
//
// Cancellation: the children's environments carry the stop token of an
// inplace_stop_source in the operation state. The first error or stop of a child
// requests stop there, so the siblings end early; a stop request on the receiver's own
// token is forwarded to it by a stop callback that lives from start() until the last
// child completes.
//
// Ordering: a child stores its values (or the first error its error) before it counts
// itself off with an acq_rel decrement, so the child that counts the last one off reads
// everything the others stored. The disposition (values, error, stopped) is an atomic
// that only moves from values to error or stopped, or from stopped to error: the first
// error wins, and a stopped child does not hide it.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_storage.hpp"
#include "loom/detail/sender_variant.hpp"
#include "loom/stop_token.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class ArgLists>
struct one_value_list {
    static constexpr bool count_ok = false;
};
template <>
struct one_value_list<type_list<>> {
    static constexpr bool count_ok = true;
    static constexpr bool has_value = false;
    static constexpr bool nothrow_store = true;
    using storage = std::optional<std::tuple<>>;
    using decayed = type_list<>;
};
template <class... As>
struct one_value_list<type_list<type_list<As...>>> {
    static constexpr bool count_ok = true;
    static constexpr bool has_value = true;
    using storage = std::optional<std::tuple<std::decay_t<As>...>>;
    using decayed = type_list<std::decay_t<As>...>;
    static constexpr bool nothrow_store = (std::is_nothrow_constructible_v<std::decay_t<As>, As> && ...);
};

template <class S>
using child_values = one_value_list<channel_args_t<set_value_t, completion_signatures_of_t<S>>>;

template <class Sig>
struct when_all_error_signature {
    using type = completion_signatures<>;
};
template <class E>
struct when_all_error_signature<set_error_t(E)> {
    using type = completion_signatures<set_error_t(std::decay_t<E>)>;
};

template <class Sig>
struct nothrow_error_copy : std::true_type {};
template <class E>
struct nothrow_error_copy<set_error_t(E)> : std::is_nothrow_constructible<std::decay_t<E>, E> {};
template <class Sigs>
struct all_nothrow_error_copy;
template <class... Sigs>
struct all_nothrow_error_copy<completion_signatures<Sigs...>>
    : std::bool_constant<(nothrow_error_copy<Sigs>::value && ...)> {};

template <class Decayed>
struct value_signature_of;
template <class... Vs>
struct value_signature_of<type_list<Vs...>> {
    using type = completion_signatures<set_value_t(Vs...)>;
};

template <class... S>
class when_all_sender {
    static_assert((child_values<S>::count_ok && ...),
                  "when_all: each child sender may have at most one set_value signature (into_variant "
                  "or when_all_with_variant makes one)");

    static constexpr bool all_have_values = (child_values<S>::has_value && ...);
    using value_sigs =
        std::conditional_t<all_have_values,
                           typename value_signature_of<typename concat_lists<typename child_values<S>::decayed...>::type>::type,
                           experimental::completion_signatures<>>;
    using error_sigs = merge_signatures_t<transform_signatures_t<completion_signatures_of_t<S>, when_all_error_signature>...>;
    static constexpr bool nothrow_copies =
        ((!child_values<S>::has_value || child_values<S>::nothrow_store) && ...) &&
        (all_nothrow_error_copy<completion_signatures_of_t<S>>::value && ...);

    template <class Sigs>
    struct error_variant;
    template <class... Es>
    struct error_variant<experimental::completion_signatures<set_error_t(Es)...>> {
        using type = typename list_to_variant<typename unique_into<
            type_list<std::monostate>, Es...,
            std::conditional_t<nothrow_copies, std::monostate, std::exception_ptr>>::type>::type;
    };

public:
    using sender_concept = sender_t;
    using completion_signatures =
        merge_signatures_t<value_sigs, error_sigs,
                           std::conditional_t<nothrow_copies, experimental::completion_signatures<>,
                                              experimental::completion_signatures<set_error_t(std::exception_ptr)>>,
                           experimental::completion_signatures<set_stopped_t()>>;

    template <class... As>
    explicit when_all_sender(std::in_place_t /*unused*/, As&&... as) : sndrs_(std::forward<As>(as)...) {}

    template <class Children, class R>
    class operation;
    template <class... CvS, class R>
    class operation<type_list<CvS...>, R> {
        using outer_token = stop_token_of_t<env_of_t<R>>;
        using child_env = env<prop<get_stop_token_t, inplace_stop_token>, env_of_t<R>>;

        struct forward_stop {
            inplace_stop_source* src;
            void operator()() noexcept { src->request_stop(); }
        };

        template <std::size_t I>
        struct child_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                op->template on_value<I>(std::forward<As>(as)...);
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                op->on_error(std::forward<E>(e));
            }
            void set_stopped() && noexcept { op->on_stopped(); }
            child_env get_env() const noexcept {
                return child_env(prop<get_stop_token_t, inplace_stop_token>{{}, op->stop_src_.get_token()},
                                 experimental::get_env(op->rcvr_));
            }
        };

        template <class Is>
        struct children;
        template <std::size_t... Is>
        struct children<std::index_sequence<Is...>> {
            using type = op_tuple<connect_result_t<CvS, child_receiver<Is>>...>;
        };
        using children_t = typename children<std::index_sequence_for<CvS...>>::type;

        enum disposition : int { values = 0, error = 1, stopped = 2 };

    public:
        using operation_state_concept = operation_state_t;

        template <class Tuple>
        operation(Tuple&& sndrs, R r) : operation(std::forward<Tuple>(sndrs), std::move(r), std::index_sequence_for<CvS...>{}) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept {
            const outer_token token = get_stop_token(experimental::get_env(rcvr_));
            if (token.stop_requested()) {
                experimental::set_stopped(std::move(rcvr_));
                return;
            }
            if constexpr (sizeof...(CvS) == 0) {
                finish();
            } else {
                on_stop_.emplace(token, forward_stop{&stop_src_});
                children_.start_all();
            }
        }

    private:
        template <class Tuple, std::size_t... Is>
        operation(Tuple&& sndrs, R r, std::index_sequence<Is...> /*unused*/)
            : rcvr_(std::move(r)),
              remaining_(sizeof...(CvS)),
              children_([&] {
                  return experimental::connect(std::get<Is>(std::forward<Tuple>(sndrs)), child_receiver<Is>{this});
              }...) {}

        template <std::size_t I, class... As>
        void on_value(As&&... as) noexcept {
            using info = child_values<std::tuple_element_t<I, std::tuple<std::remove_cvref_t<CvS>...>>>;
            if constexpr (info::has_value && !nothrow_copies) {
                std::exception_ptr failure;
                try {
                    std::get<I>(values_).emplace(std::forward<As>(as)...);
                } catch (...) {
                    failure = std::current_exception();
                }
                if (failure) {
                    on_error(std::move(failure));
                    return;
                }
            } else if constexpr (info::has_value) {
                std::get<I>(values_).emplace(std::forward<As>(as)...);
            }
            arrive();
        }

        template <class E>
        void on_error(E&& e) noexcept {
            if (disposition_.exchange(error, std::memory_order_acq_rel) != error) {
                try {
                    errors_.template emplace<std::decay_t<E>>(std::forward<E>(e));
                } catch (...) {
                    if constexpr (!nothrow_copies) errors_.template emplace<std::exception_ptr>(std::current_exception());
                }
                stop_src_.request_stop();
            }
            arrive();
        }

        void on_stopped() noexcept {
            int expected = values;
            if (disposition_.compare_exchange_strong(expected, stopped, std::memory_order_acq_rel,
                                                     std::memory_order_relaxed)) {
                stop_src_.request_stop();
            }
            arrive();
        }

        void arrive() noexcept {
            if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) finish();
        }

        void finish() noexcept {
            on_stop_.reset();
            switch (disposition_.load(std::memory_order_relaxed)) {
                case values:
                    if constexpr (all_have_values) {
                        std::apply(
                            [this](auto&... opts) {
                                auto all = std::tuple_cat(std::move(*opts)...);
                                std::apply(
                                    [this](auto&... vs) { experimental::set_value(std::move(rcvr_), std::move(vs)...); },
                                    all);
                            },
                            values_);
                    }
                    break;
                case error:
                    std::visit(
                        [this](auto& e) {
                            if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(e)>, std::monostate>) {
                                experimental::set_error(std::move(rcvr_), std::move(e));
                            }
                        },
                        errors_);
                    break;
                default:
                    experimental::set_stopped(std::move(rcvr_));
                    break;
            }
        }

        R rcvr_;
        inplace_stop_source stop_src_;
        std::optional<stop_callback_for_t<outer_token, forward_stop>> on_stop_;
        std::atomic<std::size_t> remaining_;
        std::atomic<int> disposition_{values};
        typename error_variant<error_sigs>::type errors_;
        std::tuple<typename child_values<std::remove_cvref_t<CvS>>::storage...> values_;
        children_t children_;
    };

    template <receiver R>
    operation<type_list<S...>, std::decay_t<R>> connect(R&& r) && {
        return {std::move(sndrs_), std::forward<R>(r)};
    }
    template <receiver R>
        requires(std::copy_constructible<S> && ...)
    operation<type_list<const S&...>, std::decay_t<R>> connect(R&& r) const& {
        return {sndrs_, std::forward<R>(r)};
    }

private:
    std::tuple<S...> sndrs_;
};

}  // namespace detail

struct when_all_t {
    template <sender... S>
    auto operator()(S&&... s) const {
        return detail::when_all_sender<std::decay_t<S>...>(std::in_place, std::forward<S>(s)...);
    }
};

/// when_all(sndrs...): every child's values together, or the first error, or stopped.
inline constexpr when_all_t when_all{};

/// when_all_with_variant(sndrs...): when_all of senders with several value signatures,
/// each child's values as one variant (into_variant).
struct when_all_with_variant_t {
    template <sender... S>
    auto operator()(S&&... s) const {
        return when_all(into_variant(std::forward<S>(s))...);
    }
};
inline constexpr when_all_with_variant_t when_all_with_variant{};

}  // namespace loom::execution::experimental
