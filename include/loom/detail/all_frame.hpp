// The frame behind when_all and dataflow: one allocation that is at the same time the
// result's shared state, the storage of the inputs, and the callback nodes registered
// with every input future. A counter starts at (number of inputs + 1); each input
// that becomes ready counts it down from its setter (inline, a few instructions), and
// the registering call removes the extra one after it has registered with all inputs,
// so the frame cannot complete while it is still being armed. The last count-down
// completes the frame: inline (when_all) or by submitting a task (dataflow).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <ranges>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/detail/shared_state.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

template <class T>
concept future_range = !is_future_v<T> && std::ranges::range<std::remove_cvref_t<T>> &&
                       is_future_v<std::ranges::range_value_t<std::remove_cvref_t<T>>>;

/// How an input is stored: unique futures are moved from (also from lvalues, as in
/// HPX), shared futures copied, everything else decay-copied.
template <class T>
std::decay_t<T> acquire(T&& t) {
    using D = std::decay_t<T>;
    if constexpr (is_unique_future_v<D>) {
        return D(std::move(t));
    } else if constexpr (future_range<D>) {
        if constexpr (is_unique_future_v<std::ranges::range_value_t<D>>) {
            return D(std::move(t));
        } else {
            return D(std::forward<T>(t));
        }
    } else {
        return D(std::forward<T>(t));
    }
}

template <class A>
inline constexpr std::size_t static_futures_v = is_future_v<A> ? 1 : 0;

template <class A>
std::size_t futures_in(const A& a) {
    if constexpr (is_future_v<A>) {
        return 1;
    } else if constexpr (future_range<A>) {
        return static_cast<std::size_t>(std::ranges::distance(a));
    } else {
        return 0;
    }
}

/// Calls fn(state_base*) for the state of every future in `a` (null for invalid ones).
template <class A, class Fn>
void for_each_state(A& a, Fn&& fn) {
    if constexpr (is_future_v<A>) {
        fn(static_cast<state_base*>(state_access::get(a)));
    } else if constexpr (future_range<A>) {
        for (auto& f : a) fn(static_cast<state_base*>(state_access::get(f)));
    }
}

template <class Frame>
struct arrive_node final : callback_node {
    Frame* frame = nullptr;
    static void on_ready(callback_node* n) noexcept { static_cast<arrive_node*>(n)->frame->arrive(); }
};

/// U: the result type; Inline: complete in the last setter (else as a new task);
/// Fn: called with the stored inputs as rvalues once all futures among them are ready.
template <class U, bool Inline, class Fn, class... Ts>
class all_frame final : public shared_state<U> {
    using node = arrive_node<all_frame>;
    static constexpr std::size_t n_static = (static_futures_v<Ts> + ... + 0);
    static constexpr bool has_ranges = (future_range<Ts> || ...);

public:
    template <class F2, class... As>
    all_frame(priority p, F2&& fn, As&&... as)
        : shared_state<U>(2), fn_(std::forward<F2>(fn)), args_(acquire(std::forward<As>(as))...), prio_(p) {}

    /// Registers with every input. Call once, right after construction; afterwards
    /// the frame may complete (and the operation's reference be dropped) at any time.
    void arm() {
        std::size_t total = n_static;
        node* nodes = statics_.data();
        if constexpr (has_ranges) {
            total = std::apply([](const auto&... a) { return (futures_in(a) + ... + std::size_t{0}); }, args_);
            dynamic_ = std::make_unique<node[]>(total);
            nodes = dynamic_.get();
        }
        remaining_.store(total + 1, std::memory_order_relaxed);
        std::size_t i = 0;
        std::apply(
            [&](auto&... a) {
                (for_each_state(a,
                                [&](state_base* s) {
                                    node& n = nodes[i++];
                                    n.frame = this;
                                    n.fire = &node::on_ready;
                                    if (s == nullptr || !s->add_callback(&n)) arrive();
                                }),
                 ...);
            },
            args_);
        arrive();
    }

    void arrive() noexcept {
        if (remaining_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
        if constexpr (Inline) {
            complete();
        } else {
            ext::task* t = ext::make_task([this] { complete(); }, prio_);
            // LOOM_CRITICAL_PATH: a dataflow many others wait for runs first.
            if (prio_ == priority::normal && ext::critical_path_enabled()) {
                if (const unsigned level = ext::critical_level(this->dependents())) {
                    t->prio = priority::high;
                    t->level = static_cast<std::uint8_t>(level);
                }
            }
            ext::submit(t);
        }
    }

private:
    void complete() noexcept {
        // Inline: complete() runs in whoever made the last input ready, which goes on.
        fulfil<!Inline>(static_cast<shared_state<U>*>(this),
               [&]() -> decltype(auto) { return std::apply(std::move(fn_), std::move(args_)); });
        this->release();
    }

    Fn fn_;
    std::tuple<Ts...> args_;
    std::atomic<std::size_t> remaining_{0};
    priority prio_;
    std::array<node, n_static> statics_{};
    std::unique_ptr<node[]> dynamic_;
};

}  // namespace loom::detail
