// start_detached(sndr): connects sndr to a receiver that owns the operation (one heap
// block) and starts it; the operation frees itself when it completes with a value or
// stopped. An error has nowhere to go: as the standard says, std::terminate (send errors
// somewhere first, e.g. with upon_error).
#pragma once

#include <exception>
#include <memory>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class S>
class detached_operation {
    struct receiver_type {
        using receiver_concept = receiver_t;
        detached_operation* self;

        template <class... As>
        void set_value(As&&... /*unused*/) && noexcept {
            delete self;
        }
        template <class E>
        [[noreturn]] void set_error(E&& /*unused*/) && noexcept {
            std::terminate();
        }
        void set_stopped() && noexcept { delete self; }
    };

public:
    explicit detached_operation(S&& s) : op_(experimental::connect(std::forward<S>(s), receiver_type{this})) {}
    detached_operation(const detached_operation&) = delete;
    detached_operation& operator=(const detached_operation&) = delete;

    void start() noexcept { experimental::start(op_); }

private:
    connect_result_t<S, receiver_type> op_;
};

}  // namespace detail

struct start_detached_t {
    template <sender S>
    void operator()(S&& s) const {
        auto* op = new detail::detached_operation<S>(std::forward<S>(s));
        op->start();  // from here on the operation owns itself
    }
};

/// start_detached(sndr): starts sndr and forgets it (an error terminates the program).
inline constexpr start_detached_t start_detached{};

}  // namespace loom::execution::experimental
