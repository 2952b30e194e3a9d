// dataflow(f, args...): runs f as a new task once every future among args (and every
// future in a range argument) is ready. f receives the arguments as they were given:
// futures as (ready) futures, ranges of futures as ranges, other values as values.
// Returns the future of f's result; a returned future is unwrapped (as in HPX).
#pragma once

#include <functional>
#include <type_traits>
#include <utility>

#include "loom/detail/all_frame.hpp"
#include "loom/future.hpp"
#include "loom/ext/task.hpp"

namespace loom {

namespace detail {
template <class F, class... Ts>
using dataflow_result_t = unwrapped_t<std::invoke_result_t<std::decay_t<F>, std::decay_t<Ts>...>>;
}  // namespace detail

template <class F, class... Ts>
future<detail::dataflow_result_t<F, Ts...>> dataflow(priority p, F&& f, Ts&&... ts) {
    using U = detail::dataflow_result_t<F, Ts...>;
    using frame = detail::all_frame<U, false, std::decay_t<F>, std::decay_t<Ts>...>;
    auto* fr = new frame(p, std::forward<F>(f), std::forward<Ts>(ts)...);
    auto fut = detail::state_access::make_future(static_cast<detail::shared_state<U>*>(fr));
    fr->arm();
    return fut;
}

template <class F, class... Ts>
    requires(!std::is_same_v<std::remove_cvref_t<F>, priority>)
future<detail::dataflow_result_t<F, Ts...>> dataflow(F&& f, Ts&&... ts) {
    return loom::dataflow(priority::normal, std::forward<F>(f), std::forward<Ts>(ts)...);
}

}  // namespace loom
