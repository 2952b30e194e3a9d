// Senders and loom's futures, both ways:
//
//   as_sender(future<T>&&)            a sender of the future's value (moved out) or its
//   as_sender(const shared_future<T>&)   exception; a shared_future's value is sent as a
//                                     const lvalue. A ready future completes in start();
//                                     otherwise the sender completes in the context that
//                                     makes the future ready (a callback on its state, run
//                                     by the setter: no task, no wait). A future cannot be
//                                     cancelled: stop requests are not looked at.
//   make_future(sndr)                 starts sndr now and returns loom::future<T> of its
//                                     value: T for one value, void for none, std::tuple
//                                     for several; an error becomes the future's
//                                     exception, stopped the exception operation_stopped.
//                                     The future's shared state and the operation are one
//                                     heap block (the futures' block cache).
#pragma once

#include <exception>
#include <future>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/detail/event.hpp"
#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_scheduler.hpp"
#include "loom/detail/shared_state.hpp"
#include "loom/future.hpp"

namespace loom::execution::experimental {

/// What make_future's future and co_await throw for a sender that completed with
/// set_stopped.
class operation_stopped : public std::exception {
public:
    [[nodiscard]] const char* what() const noexcept override {
        return "loom: the sender completed with set_stopped (its work was cancelled)";
    }
};

namespace detail {

// ---- future -> sender ---------------------------------------------------------------------

template <class T, bool Shared>
struct future_value_signature {
    using type = completion_signatures<set_value_t(std::conditional_t<Shared, const T&, T>)>;
};
template <class T, bool Shared>
struct future_value_signature<T&, Shared> {
    using type = completion_signatures<set_value_t(T&)>;
};
template <bool Shared>
struct future_value_signature<void, Shared> {
    using type = completion_signatures<set_value_t()>;
};

template <class T, bool Shared>
class future_sender {
    using state = ::loom::detail::shared_state<T>;

public:
    using sender_concept = sender_t;
    using completion_signatures = merge_signatures_t<typename future_value_signature<T, Shared>::type,
                                                     experimental::completion_signatures<set_error_t(std::exception_ptr)>>;

    /// Takes over one reference of `st`.
    explicit future_sender(state* st) noexcept : st_(st) {}
    future_sender(const future_sender& o) noexcept
        requires Shared
        : st_(o.st_) {
        st_->add_ref();
    }
    future_sender(future_sender&& o) noexcept : st_(std::exchange(o.st_, nullptr)) {}
    future_sender& operator=(future_sender o) noexcept {
        std::swap(st_, o.st_);
        return *this;
    }
    ~future_sender() {
        if (st_ != nullptr) st_->release();
    }

    template <class R>
    class operation : ::loom::detail::callback_node {
    public:
        using operation_state_concept = operation_state_t;

        operation(state* st, R r) noexcept(std::is_nothrow_move_constructible_v<R>) : rcvr_(std::move(r)), st_(st) {
            fire = &fired;
        }
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;
        ~operation() { st_->release(); }

        void start() & noexcept {
            if (st_->is_ready() || !st_->add_callback(this)) deliver();
        }

    private:
        static void fired(::loom::detail::callback_node* n) noexcept { static_cast<operation*>(n)->deliver(); }

        void deliver() noexcept {
            if (st_->has_exception()) {
                experimental::set_error(std::move(rcvr_), st_->exception());
            } else if constexpr (std::is_void_v<T>) {
                experimental::set_value(std::move(rcvr_));
            } else if constexpr (std::is_reference_v<T>) {
                experimental::set_value(std::move(rcvr_), st_->value());
            } else if constexpr (Shared) {
                experimental::set_value(std::move(rcvr_), static_cast<const T&>(st_->value()));
            } else {
                experimental::set_value(std::move(rcvr_), std::move(st_->value()));
            }
        }

        R rcvr_;
        state* st_;
    };

    template <receiver R>
    operation<std::decay_t<R>> connect(R&& r) && {
        LOOM_CHECK_USAGE(st_ != nullptr, "connect of a moved-from future sender");
        return {std::exchange(st_, nullptr), std::forward<R>(r)};
    }
    template <receiver R>
        requires Shared
    operation<std::decay_t<R>> connect(R&& r) const& {
        LOOM_CHECK_USAGE(st_ != nullptr, "connect of a moved-from future sender");
        st_->add_ref();
        return {st_, std::forward<R>(r)};
    }

private:
    state* st_;
};

// ---- sender -> future -------------------------------------------------------------------------

template <class ArgLists>
struct future_value_of {
    static_assert(sizeof(ArgLists) == 0, "make_future: the sender must have at most one set_value signature");
};
template <>
struct future_value_of<type_list<>> {
    using type = void;
};
template <>
struct future_value_of<type_list<type_list<>>> {
    using type = void;
};
template <class A>
struct future_value_of<type_list<type_list<A>>> {
    using type = std::decay_t<A>;
};
template <class A, class B, class... As>
struct future_value_of<type_list<type_list<A, B, As...>>> {
    using type = std::tuple<std::decay_t<A>, std::decay_t<B>, std::decay_t<As>...>;
};
/// What a future of S's result holds: T for one value, void for none, a tuple for more.
template <class S>
using future_value_t = typename future_value_of<channel_args_t<set_value_t, completion_signatures_of_t<S>>>::type;

/// The future's shared state with the sender's operation in the same block.
template <class T, class S>
class sender_future_frame final : public ::loom::detail::shared_state<T> {
    struct receiver_type {
        using receiver_concept = receiver_t;
        sender_future_frame* frame;

        template <class... As>
        void set_value(As&&... as) && noexcept {
            frame->set_values(std::forward<As>(as)...);
        }
        template <class E>
        void set_error(E&& e) && noexcept {
            frame->finish(as_exception_ptr(std::forward<E>(e)));
        }
        void set_stopped() && noexcept { frame->finish(std::make_exception_ptr(operation_stopped())); }
        [[nodiscard]] env<prop<get_scheduler_t, pool_scheduler>> get_env() const noexcept {
            return env<prop<get_scheduler_t, pool_scheduler>>(prop<get_scheduler_t, pool_scheduler>{{}, pool_scheduler()});
        }
    };

public:
    explicit sender_future_frame(S&& s)
        : ::loom::detail::shared_state<T>(2),  // the future's reference and the operation's
          op_(experimental::connect(std::forward<S>(s), receiver_type{this})) {}

    void start() noexcept { experimental::start(op_); }

private:
    template <class... As>
    void set_values(As&&... as) noexcept {
        std::exception_ptr error;
        try {
            if constexpr (std::is_void_v<T>) {
                this->set_value();
            } else if constexpr (sizeof...(As) == 1) {
                this->set_value(std::forward<As>(as)...);
            } else {
                this->set_value(T(std::forward<As>(as)...));
            }
        } catch (...) {
            error = std::current_exception();  // published after the handler has ended
        }
        if (error) this->set_exception(std::move(error));
        this->release();  // may free the frame, this operation with it: nothing after
    }
    void finish(std::exception_ptr e) noexcept {
        this->set_exception(std::move(e));
        this->release();
    }

    connect_result_t<S, receiver_type> op_;
};

}  // namespace detail

struct as_sender_t {
    template <class T>
    auto operator()(future<T>&& f) const {
        auto* st = ::loom::detail::state_access::take(f);
        if (st == nullptr) ::loom::detail::throw_future_error(std::future_errc::no_state);
        return detail::future_sender<T, false>(st);
    }
    template <class T>
    auto operator()(future<T>& f) const {
        return (*this)(std::move(f));
    }
    template <class T>
    auto operator()(const shared_future<T>& f) const {
        auto* st = ::loom::detail::state_access::get(f);
        if (st == nullptr) ::loom::detail::throw_future_error(std::future_errc::no_state);
        st->add_ref();
        return detail::future_sender<T, true>(st);
    }
};

struct make_future_t {
    template <sender S>
    auto operator()(S&& s) const {
        using T = detail::future_value_t<S>;
        auto* frame = new detail::sender_future_frame<T, S>(std::forward<S>(s));
        future<T> f = ::loom::detail::state_access::make_future<T>(frame);
        frame->start();
        return f;
    }
    auto operator()() const noexcept { return detail::bind_closure<make_future_t>(); }
};

/// as_sender(future): a sender of the future's result (future -> sender).
inline constexpr as_sender_t as_sender{};
/// make_future(sndr): starts sndr and returns a loom::future of its result.
inline constexpr make_future_t make_future{};

}  // namespace loom::execution::experimental

namespace loom {
/// loom::make_future(sndr) is execution::experimental::make_future(sndr).
using execution::experimental::make_future;
}  // namespace loom
