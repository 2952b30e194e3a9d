// How a public algorithm meets its policy: the policy's compile-time part (task or
// not) chooses between calling the implementation now and running it as a task that
// fulfils a loom::future; its run-time part (kind, parameters, priority) travels to
// the implementation as an exec_info.
#pragma once

#include <iterator>
#include <type_traits>
#include <utility>

#include "loom/async.hpp"
#include "loom/detail/algorithm_plan.hpp"
#include "loom/execution.hpp"

namespace loom::detail {

/// impl(exec_info) -> R: returns R, or loom::future<R> for a task policy. The closure
/// owns copies of the algorithm's arguments, so a task outlives the call.
template <class Policy, class Impl>
auto with_policy(const Policy& policy, Impl&& impl) {
    const exec_info ei = info_of(policy);
    if constexpr (std::remove_cvref_t<Policy>::is_task) {
        return loom::async(ei.prio, [ei, f = std::forward<Impl>(impl)]() mutable { return f(ei); });
    } else {
        return std::forward<Impl>(impl)(ei);
    }
}

/// The parallel code paths index iterators; anything weaker runs sequentially.
template <class... It>
inline constexpr bool all_random_access = (std::random_access_iterator<It> && ...);

/// The identity projection reduce() and the plain scans hand to the transforming
/// forms: an lvalue passes as a reference, a prvalue (proxy iterators) by value so
/// that nothing refers to a dead temporary.
struct identity_fn {
    template <class X>
    constexpr X operator()(X&& x) const {
        return std::forward<X>(x);
    }
};

}  // namespace loom::detail
