// when_all: a future that becomes ready when all of its input futures are ready.
//   when_all(f1, f2, ...)      -> future<std::tuple<future<T1>, future<T2>, ...>>
//   when_all(range) / (first, last) -> future<std::vector<future<T>>>
// Unique futures are moved from (also lvalues, as in HPX); shared futures are copied.
#pragma once

#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/detail/all_frame.hpp"
#include "loom/future.hpp"

namespace loom {

namespace detail {
struct pack_tuple {
    template <class... Fs>
    std::tuple<Fs...> operator()(Fs&&... fs) const {
        return std::tuple<Fs...>(std::move(fs)...);
    }
};
struct pass_through {
    template <class V>
    V operator()(V&& v) const {
        return std::move(v);
    }
};
}  // namespace detail

inline future<std::tuple<>> when_all() { return make_ready_future(std::tuple<>()); }

template <class... Fs>
    requires(sizeof...(Fs) > 0 && (detail::is_future_v<Fs> && ...))
future<std::tuple<std::decay_t<Fs>...>> when_all(Fs&&... fs) {
    using U = std::tuple<std::decay_t<Fs>...>;
    using frame = detail::all_frame<U, true, detail::pack_tuple, std::decay_t<Fs>...>;
    auto* f = new frame(priority::normal, detail::pack_tuple{}, std::forward<Fs>(fs)...);
    f->arm();
    return detail::state_access::make_future(static_cast<detail::shared_state<U>*>(f));
}

template <class R>
    requires detail::future_range<R>
future<std::vector<std::ranges::range_value_t<std::remove_cvref_t<R>>>> when_all(R&& r) {
    using F = std::ranges::range_value_t<std::remove_cvref_t<R>>;
    using V = std::vector<F>;
    using frame = detail::all_frame<V, true, detail::pass_through, V>;
    frame* f = nullptr;
    if constexpr (std::is_same_v<std::remove_cvref_t<R>, V>) {
        f = new frame(priority::normal, detail::pass_through{}, std::forward<R>(r));
    } else {
        V v;
        for (auto&& x : r) v.push_back(detail::acquire(x));
        f = new frame(priority::normal, detail::pass_through{}, std::move(v));
    }
    f->arm();
    return detail::state_access::make_future(static_cast<detail::shared_state<V>*>(f));
}

template <std::input_iterator It>
    requires detail::is_future_v<std::iter_value_t<It>>
future<std::vector<std::iter_value_t<It>>> when_all(It first, It last) {
    std::vector<std::iter_value_t<It>> v;
    for (; first != last; ++first) v.push_back(detail::acquire(*first));
    return when_all(std::move(v));
}

/// Waits (suspending a task, blocking a thread) until every future is ready.
template <class... Fs>
    requires(detail::is_future_v<Fs> && ...)
void wait_all(const Fs&... fs) {
    (fs.wait(), ...);
}
template <class R>
    requires detail::future_range<R>
void wait_all(const R& r) {
    for (const auto& f : r) f.wait();
}

}  // namespace loom
