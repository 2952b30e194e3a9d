// when_any: a future that becomes ready when the first of its inputs is ready.
//   when_any(f1, f2, ...)  -> future<when_any_result<std::tuple<future<T1>, ...>>>
//   when_any(range) / (first, last) -> future<when_any_result<std::vector<future<T>>>>
// `index` names the first input found ready (size_t(-1) for an empty range).
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/detail/all_frame.hpp"
#include "loom/future.hpp"

namespace loom {

template <class Sequence>
struct when_any_result {
    std::size_t index = static_cast<std::size_t>(-1);
    Sequence futures;
};

namespace detail {

// The frame is the result's shared state. Every registered node holds a reference to
// it (an input may become ready long after the result was consumed); a gate that
// starts at 2 is opened by the first ready input and by the end of registration, so
// the inputs are not moved into the result while they are still being registered.
template <class Seq>
class any_frame final : public shared_state<when_any_result<Seq>> {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    struct node final : callback_node {
        any_frame* frame = nullptr;
        std::size_t index = 0;
    };

public:
    explicit any_frame(Seq&& s) : shared_state<when_any_result<Seq>>(1), futs_(std::move(s)) {}

    void arm() {
        std::vector<state_base*> states;
        if constexpr (future_range<Seq>) {
            for (auto& f : futs_) states.push_back(state_access::get(f));
        } else {
            std::apply([&](auto&... f) { (states.push_back(state_access::get(f)), ...); }, futs_);
        }
        if (states.empty()) {
            this->set_value(when_any_result<Seq>{npos, std::move(futs_)});
            return;
        }
        nodes_ = std::make_unique<node[]>(states.size());
        for (std::size_t i = 0; i < states.size(); ++i) {
            node& n = nodes_[i];
            n.frame = this;
            n.index = i;
            n.fire = &on_ready;
            this->add_ref();
            if (states[i] == nullptr || !states[i]->add_callback(&n)) on_ready(&n);
        }
        open_gate();
    }

private:
    static void on_ready(callback_node* c) noexcept {
        node* n = static_cast<node*>(c);
        any_frame* self = n->frame;
        std::size_t expected = npos;
        if (self->winner_.compare_exchange_strong(expected, n->index, std::memory_order_acq_rel)) {
            self->open_gate();
        }
        self->release();
    }
    void open_gate() noexcept {
        if (gate_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            this->set_value(when_any_result<Seq>{winner_.load(std::memory_order_relaxed), std::move(futs_)});
        }
    }

    Seq futs_;
    std::atomic<std::size_t> winner_{npos};
    std::atomic<int> gate_{2};
    std::unique_ptr<node[]> nodes_;
};

template <class Seq>
future<when_any_result<Seq>> make_when_any(Seq&& s) {
    auto* f = new any_frame<Seq>(std::move(s));
    // The returned future's reference keeps the frame alive while it is armed.
    auto fut = state_access::make_future(static_cast<shared_state<when_any_result<Seq>>*>(f));
    f->arm();
    return fut;
}

}  // namespace detail

template <class... Fs>
    requires(detail::is_future_v<Fs> && ...)
future<when_any_result<std::tuple<std::decay_t<Fs>...>>> when_any(Fs&&... fs) {
    return detail::make_when_any(std::tuple<std::decay_t<Fs>...>(detail::acquire(std::forward<Fs>(fs))...));
}

template <class R>
    requires detail::future_range<R>
future<when_any_result<std::vector<std::ranges::range_value_t<std::remove_cvref_t<R>>>>> when_any(R&& r) {
    using F = std::ranges::range_value_t<std::remove_cvref_t<R>>;
    std::vector<F> v;
    if constexpr (std::is_same_v<std::remove_cvref_t<R>, std::vector<F>>) {
        v = detail::acquire(std::forward<R>(r));
    } else {
        for (auto&& x : r) v.push_back(detail::acquire(x));
    }
    return detail::make_when_any(std::move(v));
}

template <std::input_iterator It>
    requires detail::is_future_v<std::iter_value_t<It>>
future<when_any_result<std::vector<std::iter_value_t<It>>>> when_any(It first, It last) {
    std::vector<std::iter_value_t<It>> v;
    for (; first != last; ++first) v.push_back(detail::acquire(*first));
    return detail::make_when_any(std::move(v));
}

}  // namespace loom
