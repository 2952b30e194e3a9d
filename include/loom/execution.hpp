// Execution policies for loom's parallel algorithms (HPX / C++17 shape):
//
//   loom::execution::seq        run in the calling thread, in order
//   loom::execution::par        fork-join over loom's workers; the caller takes part
//   loom::execution::par_unseq  as par; an exception escaping user code terminates
//   loom::execution::unseq      as seq; an exception escaping user code terminates
//   policy(loom::execution::task)    the algorithm runs as a task and returns a
//                                    loom::future of its result
//   policy.with(params...)      chunk sizes and core counts (execution_parameters.hpp)
//   policy.on(executor)         a parallel_executor carrying the tasks' priority
//
// The policy objects are small values: with() and on() return modified copies.
#pragma once

#include <cstdint>
#include <type_traits>

#include "loom/execution_parameters.hpp"
#include "loom/ext/task.hpp"

namespace loom::execution {

/// Tag for policy(task): the algorithm returns a future instead of its result.
struct task_policy_tag {
    explicit constexpr task_policy_tag(int /*unused*/) noexcept {}
};
inline constexpr task_policy_tag task{0};

/// Runs the algorithm's tasks on loom's pool with priority `p` (high: taken before
/// any normal task, locally and when stealing).
class parallel_executor {
public:
    constexpr parallel_executor() noexcept = default;
    constexpr explicit parallel_executor(loom::priority p) noexcept : prio_(p) {}
    [[nodiscard]] constexpr loom::priority priority() const noexcept { return prio_; }

private:
    loom::priority prio_ = loom::priority::normal;
};

enum class policy_kind : std::uint8_t { seq, par, par_unseq, unseq };

/// One type per (kind, task) pair; the parameters and the executor are run-time values
/// so that every `.with(...)` of a policy has the policy's own type.
template <policy_kind K, bool Task>
class basic_policy {
public:
    static constexpr policy_kind kind = K;
    static constexpr bool is_task = Task;

    constexpr basic_policy() noexcept = default;

    /// policy(task): the same policy, returning futures.
    constexpr basic_policy<K, true> operator()(task_policy_tag /*unused*/) const noexcept {
        return basic_policy<K, true>(params_, exec_);
    }
    /// The same policy with the given executor parameters applied in order.
    template <executor_parameter... P>
    constexpr basic_policy with(const P&... p) const noexcept {
        basic_policy r = *this;
        (p.apply(r.params_), ...);
        return r;
    }
    /// The same policy on `e` (its priority applies to every task of the algorithm).
    constexpr basic_policy on(const parallel_executor& e) const noexcept {
        return basic_policy(params_, e);
    }
    [[nodiscard]] constexpr const detail::chunk_parameters& parameters() const noexcept { return params_; }
    [[nodiscard]] constexpr const parallel_executor& executor() const noexcept { return exec_; }

private:
    template <policy_kind, bool>
    friend class basic_policy;
    constexpr basic_policy(const detail::chunk_parameters& p, const parallel_executor& e) noexcept
        : params_(p), exec_(e) {}

    detail::chunk_parameters params_{};
    parallel_executor exec_{};
};

using sequenced_policy = basic_policy<policy_kind::seq, false>;
using sequenced_task_policy = basic_policy<policy_kind::seq, true>;
using parallel_policy = basic_policy<policy_kind::par, false>;
using parallel_task_policy = basic_policy<policy_kind::par, true>;
using parallel_unsequenced_policy = basic_policy<policy_kind::par_unseq, false>;
using parallel_unsequenced_task_policy = basic_policy<policy_kind::par_unseq, true>;
using unsequenced_policy = basic_policy<policy_kind::unseq, false>;
using unsequenced_task_policy = basic_policy<policy_kind::unseq, true>;

inline constexpr sequenced_policy seq{};
inline constexpr parallel_policy par{};
inline constexpr parallel_unsequenced_policy par_unseq{};
inline constexpr unsequenced_policy unseq{};

template <class T>
struct is_execution_policy : std::false_type {};
template <policy_kind K, bool Task>
struct is_execution_policy<basic_policy<K, Task>> : std::true_type {};
template <class T>
inline constexpr bool is_execution_policy_v = is_execution_policy<std::remove_cvref_t<T>>::value;

/// What the public algorithms accept as their first argument.
template <class T>
concept execution_policy = is_execution_policy_v<T>;

}  // namespace loom::execution
