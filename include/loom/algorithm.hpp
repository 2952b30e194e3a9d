// Parallel algorithms of <algorithm> with loom's execution policies (HPX / C++17
// shape). Every algorithm comes in two forms:
//
//   loom::sort(first, last)                     sequential: exactly std::sort
//   loom::sort(loom::execution::par, first, last)   with a policy (execution.hpp)
//
// With policy(task) the call returns a loom::future of the result at once (void ->
// future<void>); the algorithm runs as a task that owns copies of the arguments (the
// ranges themselves must outlive it). Range forms: loom/ranges.hpp. Under par the
// first exception thrown by user code is rethrown once every started chunk has
// finished; under par_unseq and unseq such an exception calls std::terminate; seq
// lets it propagate. Parallel paths need random-access iterators; weaker iterators
// run sequentially. Guide: docs/algorithms.md.
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <utility>

#include "loom/detail/algorithm_dispatch.hpp"
#include "loom/detail/algorithm_elementwise.hpp"
#include "loom/detail/algorithm_merge.hpp"
#include "loom/detail/algorithm_partition.hpp"
#include "loom/detail/algorithm_search.hpp"
#include "loom/detail/algorithm_sort.hpp"
#include "loom/detail/algorithm_two_pass.hpp"
#include "loom/execution.hpp"
#include "loom/for_loop.hpp"

namespace loom {

// The forms without a policy are the standard ones.
using std::all_of;
using std::any_of;
using std::copy;
using std::copy_if;
using std::count;
using std::count_if;
using std::fill;
using std::find;
using std::find_if;
using std::for_each;
using std::for_each_n;
using std::generate;
using std::max_element;
using std::merge;
using std::min_element;
using std::minmax_element;
using std::none_of;
using std::partition;
using std::sort;
using std::stable_sort;
using std::transform;

template <execution::execution_policy P, class It, class F>
auto for_each(P&& p, It first, It last, F f) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable { detail::for_each_impl(ei, first, last, f); });
}

template <execution::execution_policy P, class It, class Size, class F>
auto for_each_n(P&& p, It first, Size n, F f) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        const It last = std::next(first, std::iter_difference_t<It>(n));
        detail::for_each_impl(ei, first, last, f);
        return last;
    });
}

template <execution::execution_policy P, class In, class Out, class F>
auto transform(P&& p, In first, In last, Out out, F f) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::transform_impl(ei, first, last, out, f);
    });
}

template <execution::execution_policy P, class In1, class In2, class Out, class F>
auto transform(P&& p, In1 first1, In1 last1, In2 first2, Out out, F f) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::transform2_impl(ei, first1, last1, first2, out, f);
    });
}

template <execution::execution_policy P, class In, class Out>
auto copy(P&& p, In first, In last, Out out) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) { return detail::copy_impl(ei, first, last, out); });
}

template <execution::execution_policy P, class In, class Out, class Pred>
auto copy_if(P&& p, In first, In last, Out out, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::copy_if_impl(ei, first, last, out, pred);
    });
}

template <execution::execution_policy P, class It, class T>
auto fill(P&& p, It first, It last, const T& value) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) { detail::fill_impl(ei, first, last, value); });
}

template <execution::execution_policy P, class It, class G>
auto generate(P&& p, It first, It last, G g) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable { detail::generate_impl(ei, first, last, g); });
}

template <execution::execution_policy P, class It, class Pred>
auto count_if(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::count_if_impl(ei, first, last, pred);
    });
}

template <execution::execution_policy P, class It, class T>
auto count(P&& p, It first, It last, const T& value) {
    return loom::count_if(std::forward<P>(p), first, last, [value](const auto& x) { return x == value; });
}

template <execution::execution_policy P, class It, class Pred>
auto find_if(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::find_if_impl(ei, first, last, pred);
    });
}

template <execution::execution_policy P, class It, class T>
auto find(P&& p, It first, It last, const T& value) {
    return loom::find_if(std::forward<P>(p), first, last, [value](const auto& x) { return x == value; });
}

template <execution::execution_policy P, class It, class Pred>
auto any_of(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::find_if_impl(ei, first, last, pred) != last;
    });
}

template <execution::execution_policy P, class It, class Pred>
auto none_of(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::find_if_impl(ei, first, last, pred) == last;
    });
}

template <execution::execution_policy P, class It, class Pred>
auto all_of(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        auto fails = [&pred](const auto& x) { return !std::invoke(pred, x); };
        return detail::find_if_impl(ei, first, last, fails) == last;
    });
}

template <execution::execution_policy P, class It, class Comp = std::less<>>
auto min_element(P&& p, It first, It last, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::min_element_impl(ei, first, last, comp);
    });
}

template <execution::execution_policy P, class It, class Comp = std::less<>>
auto max_element(P&& p, It first, It last, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::max_element_impl(ei, first, last, comp);
    });
}

template <execution::execution_policy P, class It, class Comp = std::less<>>
auto minmax_element(P&& p, It first, It last, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::minmax_element_impl(ei, first, last, comp);
    });
}

template <execution::execution_policy P, class It, class Pred>
auto partition(P&& p, It first, It last, Pred pred) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::partition_impl(ei, first, last, pred);
    });
}

template <execution::execution_policy P, class In1, class In2, class Out, class Comp = std::less<>>
auto merge(P&& p, In1 first1, In1 last1, In2 first2, In2 last2, Out out, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        return detail::merge_impl(ei, first1, last1, first2, last2, out, comp);
    });
}

template <execution::execution_policy P, class It, class Comp = std::less<>>
auto sort(P&& p, It first, It last, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable { detail::sort_impl(ei, first, last, comp); });
}

template <execution::execution_policy P, class It, class Comp = std::less<>>
auto stable_sort(P&& p, It first, It last, Comp comp = {}) {
    return detail::with_policy(p, [=](const detail::exec_info& ei) mutable {
        detail::stable_sort_impl(ei, first, last, comp);
    });
}

}  // namespace loom
