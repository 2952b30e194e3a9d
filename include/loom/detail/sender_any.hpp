// any_sender<Ts...>: a type-erased sender of set_value(Ts...), set_error(exception_ptr)
// and set_stopped(). It holds any sender whose values convert to Ts... (its errors become
// exception_ptrs); connecting allocates the erased operation on the heap. Move-only (one
// connect per sender, as its operation consumes the sender).
//
// Stop requests reach the erased sender as an inplace_stop_token: the receiver's own when
// it is one, none when the receiver's token can never stop, and otherwise a source in the
// operation that a callback on the receiver's token (std::stop_token, say) triggers.
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_concepts.hpp"
#include "loom/stop_token.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class... Ts>
class any_receiver_base {
public:
    virtual void value(Ts... vs) noexcept = 0;
    virtual void error(std::exception_ptr e) noexcept = 0;
    virtual void stopped() noexcept = 0;

    inplace_stop_token token;  // what the erased sender sees as its stop token

protected:
    any_receiver_base() = default;
    any_receiver_base(const any_receiver_base&) = delete;
    any_receiver_base& operator=(const any_receiver_base&) = delete;
    ~any_receiver_base() = default;
};

/// The receiver the erased sender is connected to: a pointer to the operation.
template <class... Ts>
struct any_receiver_ref {
    using receiver_concept = receiver_t;
    any_receiver_base<Ts...>* base;

    template <class... As>
        requires(sizeof...(As) == sizeof...(Ts)) && (std::constructible_from<Ts, As> && ...)
    void set_value(As&&... as) && noexcept {
        std::exception_ptr error;
        try {
            base->value(std::forward<As>(as)...);
            return;
        } catch (...) {  // a conversion to Ts threw
            error = std::current_exception();
        }
        base->error(std::move(error));
    }
    template <class E>
    void set_error(E&& e) && noexcept {
        base->error(as_exception_ptr(std::forward<E>(e)));
    }
    void set_stopped() && noexcept { base->stopped(); }
    [[nodiscard]] env<prop<get_stop_token_t, inplace_stop_token>> get_env() const noexcept {
        return env<prop<get_stop_token_t, inplace_stop_token>>(prop<get_stop_token_t, inplace_stop_token>{{}, base->token});
    }
};

class any_operation_base {
public:
    virtual ~any_operation_base() = default;
    virtual void start() noexcept = 0;
};

template <class... Ts>
class any_sender_base {
public:
    virtual ~any_sender_base() = default;
    virtual std::unique_ptr<any_operation_base> connect(any_receiver_ref<Ts...> r) && = 0;
};

template <class S, class... Ts>
class any_sender_impl final : public any_sender_base<Ts...> {
    class operation final : public any_operation_base {
    public:
        operation(S&& s, any_receiver_ref<Ts...> r) : op_(experimental::connect(std::move(s), r)) {}
        void start() noexcept override { experimental::start(op_); }

    private:
        connect_result_t<S, any_receiver_ref<Ts...>> op_;
    };

public:
    template <class A>
    explicit any_sender_impl(A&& a) : sndr_(std::forward<A>(a)) {}

    std::unique_ptr<any_operation_base> connect(any_receiver_ref<Ts...> r) && override {
        return std::make_unique<operation>(std::move(sndr_), r);
    }

private:
    S sndr_;
};

template <class R, class... Ts>
class any_operation final : any_receiver_base<Ts...> {
    using outer_token = stop_token_of_t<env_of_t<R>>;
    static constexpr bool passes_token = std::is_same_v<outer_token, inplace_stop_token>;
    static constexpr bool forwards_stop = !passes_token && !unstoppable_token<outer_token>;

    struct forward_stop {
        inplace_stop_source* src;
        void operator()() noexcept { src->request_stop(); }
    };
    struct forwarding {
        inplace_stop_source src;
        std::optional<stop_callback_for_t<outer_token, forward_stop>> callback;
    };
    struct no_forwarding {};

public:
    using operation_state_concept = operation_state_t;

    any_operation(std::unique_ptr<any_sender_base<Ts...>> s, R r) : rcvr_(std::move(r)) {
        if constexpr (passes_token) {
            this->token = get_stop_token(experimental::get_env(rcvr_));
        } else if constexpr (forwards_stop) {
            this->token = fwd_.src.get_token();
        }
        op_ = std::move(*s).connect(any_receiver_ref<Ts...>{this});
    }
    any_operation(const any_operation&) = delete;
    any_operation& operator=(const any_operation&) = delete;

    void start() & noexcept {
        if constexpr (forwards_stop) {
            fwd_.callback.emplace(get_stop_token(experimental::get_env(rcvr_)), forward_stop{&fwd_.src});
        }
        op_->start();
    }

private:
    void value(Ts... vs) noexcept override {
        unregister();
        experimental::set_value(std::move(rcvr_), std::forward<Ts>(vs)...);
    }
    void error(std::exception_ptr e) noexcept override {
        unregister();
        experimental::set_error(std::move(rcvr_), std::move(e));
    }
    void stopped() noexcept override {
        unregister();
        experimental::set_stopped(std::move(rcvr_));
    }
    void unregister() noexcept {
        if constexpr (forwards_stop) fwd_.callback.reset();
    }

    R rcvr_;
    [[no_unique_address]] std::conditional_t<forwards_stop, forwarding, no_forwarding> fwd_;
    std::unique_ptr<any_operation_base> op_;
};

}  // namespace detail

template <class... Ts>
class any_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures =
        experimental::completion_signatures<set_value_t(Ts...), set_error_t(std::exception_ptr), set_stopped_t()>;

    /// An empty any_sender: connecting it throws std::logic_error.
    any_sender() noexcept = default;
    template <class S>
        requires(!std::is_same_v<std::remove_cvref_t<S>, any_sender>) && sender<S> &&
                sender_to<std::remove_cvref_t<S>, detail::any_receiver_ref<Ts...>>
    any_sender(S&& s)  // NOLINT(google-explicit-constructor): senders convert, as functions to std::function
        : impl_(std::make_unique<detail::any_sender_impl<std::remove_cvref_t<S>, Ts...>>(std::forward<S>(s))) {}
    any_sender(any_sender&&) noexcept = default;
    any_sender& operator=(any_sender&&) noexcept = default;

    [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }

    template <receiver R>
    detail::any_operation<std::decay_t<R>, Ts...> connect(R&& r) && {
        if (impl_ == nullptr) throw std::logic_error("loom: connect of an empty (default-constructed or moved-from) any_sender");
        return {std::move(impl_), std::forward<R>(r)};
    }

private:
    std::unique_ptr<detail::any_sender_base<Ts...>> impl_;
};

}  // namespace loom::execution::experimental
