// loom::this_thread::experimental::sync_wait(sndr): starts sndr and waits for it:
//   values   -> std::optional<std::tuple<decayed values...>> holding them
//   error    -> rethrown (std::exception_ptr), thrown as std::system_error
//               (std::error_code), or thrown as it is (any other type)
//   stopped  -> std::nullopt
// The wait is a wait_slot: in a loom task it parks the task (the worker runs other
// tasks meanwhile), on a thread outside the pool it blocks that thread. The receiver's
// environment names the pool's scheduler (get_scheduler) and no stop token.
// sync_wait_with_variant(sndr) is sync_wait(into_variant(sndr)).
#pragma once

#include <exception>
#include <optional>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_scheduler.hpp"
#include "loom/detail/sender_storage.hpp"
#include "loom/detail/sender_variant.hpp"
#include "loom/ext/scheduler.hpp"

namespace loom::execution::experimental::detail {

template <class ArgLists>
struct sync_wait_value {
    static_assert(sizeof(ArgLists) == 0, "sync_wait: the sender must have at most one set_value signature "
                                         "(sync_wait_with_variant takes several)");
};
template <>
struct sync_wait_value<type_list<>> {
    using type = std::tuple<>;  // never sends values: the answer is an error or nullopt
};
template <class... As>
struct sync_wait_value<type_list<type_list<As...>>> {
    using type = std::tuple<std::decay_t<As>...>;
};

template <class S>
using sync_wait_result_t =
    std::optional<typename sync_wait_value<channel_args_t<set_value_t, completion_signatures_of_t<S>>>::type>;

using sync_wait_env = env<prop<get_scheduler_t, pool_scheduler>>;

/// Where the completion lands: the stored completion and the slot the caller waits on.
template <class S>
struct sync_wait_state {
    stored_result<completion_signatures_of_t<S>> result;
    ext::wait_slot done;
};

template <class S>
struct sync_wait_receiver {
    using receiver_concept = receiver_t;
    sync_wait_state<S>* st;

    // The caller may return (and the state go) as soon as done is notified: nothing after.
    template <class... As>
    void set_value(As&&... as) && noexcept {
        st->result.store(set_value_t{}, std::forward<As>(as)...);
        st->done.notify();
    }
    template <class E>
    void set_error(E&& e) && noexcept {
        st->result.store(set_error_t{}, std::forward<E>(e));
        st->done.notify();
    }
    void set_stopped() && noexcept {
        st->result.store(set_stopped_t{});
        st->done.notify();
    }
    [[nodiscard]] sync_wait_env get_env() const noexcept {
        return sync_wait_env(prop<get_scheduler_t, pool_scheduler>{{}, pool_scheduler()});
    }
};

/// Turns the replayed completion into sync_wait's answer (or its exception).
template <class Result>
struct sync_wait_outcome {
    using receiver_concept = receiver_t;
    Result* out;

    template <class... As>
    void set_value(As&&... as) && noexcept {
        out->emplace(std::forward<As>(as)...);
    }
    template <class E>
    void set_error(E&& e) && noexcept {
        error = as_exception_ptr_for_sync_wait(std::forward<E>(e));
    }
    void set_stopped() && noexcept {}

    template <class E>
    static std::exception_ptr as_exception_ptr_for_sync_wait(E&& e) noexcept {
        if constexpr (std::is_same_v<std::decay_t<E>, std::error_code>) {
            return std::make_exception_ptr(std::system_error(e));
        } else {
            return as_exception_ptr(std::forward<E>(e));
        }
    }

    std::exception_ptr error;
};

template <sender S>
sync_wait_result_t<S> sync_wait_impl(S&& s) {
    using result_t = sync_wait_result_t<S>;
    sync_wait_state<std::remove_cvref_t<S>> st;
    {
        auto op = experimental::connect(std::forward<S>(s), sync_wait_receiver<std::remove_cvref_t<S>>{&st});
        experimental::start(op);
        st.done.wait();
    }
    result_t out;
    sync_wait_outcome<result_t> outcome{&out, {}};
    st.result.replay_move(std::move(outcome));
    if (outcome.error) std::rethrow_exception(outcome.error);
    return out;
}

}  // namespace loom::execution::experimental::detail

namespace loom::this_thread::experimental {

struct sync_wait_t {
    template <execution::experimental::sender S>
    auto operator()(S&& s) const {
        return execution::experimental::detail::sync_wait_impl(std::forward<S>(s));
    }
};

struct sync_wait_with_variant_t {
    template <execution::experimental::sender S>
    auto operator()(S&& s) const {
        return execution::experimental::detail::sync_wait_impl(execution::experimental::into_variant(std::forward<S>(s)));
    }
};

/// Starts the sender and waits: std::optional<std::tuple<values...>>, nullopt if stopped;
/// an error is thrown.
inline constexpr sync_wait_t sync_wait{};
/// sync_wait for senders with several value signatures: the values as one variant.
inline constexpr sync_wait_with_variant_t sync_wait_with_variant{};

}  // namespace loom::this_thread::experimental
