// loom::barrier: std::barrier for tasks (phases, arrival tokens, a completion function
// run by the last arriving participant before anyone is released, arrive_and_drop),
// plus timed waits for a phase: wait_for(token, d) / wait_until(token, t).
// Waiting parks a task and blocks a thread outside the pool. Protocol: the comment
// above barrier_base in src/api/sync.cpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "loom/detail/config.hpp"
#include "loom/detail/deadline.hpp"
#include "loom/detail/spinlock.hpp"
#include "loom/detail/wait_queue.hpp"
#include "loom/ext/export.hpp"

namespace loom {

namespace detail {

struct empty_completion {
    void operator()() noexcept {}
};

class LOOM_EXPORT barrier_base {
public:
    class arrival_token {
    public:
        arrival_token() = default;

    private:
        friend class barrier_base;
        explicit arrival_token(std::uint64_t p) noexcept : phase_(p) {}
        std::uint64_t phase_ = 0;
    };

    barrier_base(const barrier_base&) = delete;
    barrier_base& operator=(const barrier_base&) = delete;

    [[nodiscard]] arrival_token arrive(std::ptrdiff_t n = 1) noexcept { return arrive_impl(n, false); }
    void wait(arrival_token&& t) const noexcept;
    /// Waits for the phase of `t` to complete, at most until `d` has passed (steady_clock):
    /// true if it completed. The token stays usable, so a timed-out wait can be repeated.
    template <class Rep, class Period>
    bool wait_for(const arrival_token& t, const std::chrono::duration<Rep, Period>& d) const {
        return wait_steady(t, deadline_after(d));
    }
    /// As wait_for, until `tp` has passed on its clock.
    template <class Clock, class Duration>
    bool wait_until(const arrival_token& t, const std::chrono::time_point<Clock, Duration>& tp) const {
        return wait_until_clock(tp, [this, &t](steady_time due) { return wait_steady(t, due); });
    }
    void arrive_and_wait() noexcept { wait(arrive_impl(1, false)); }
    void arrive_and_drop() noexcept { (void)arrive_impl(1, true); }

protected:
    using completion_fn = void (*)(void*) noexcept;
    barrier_base(std::ptrdiff_t expected, completion_fn fn, void* ctx) noexcept
        : expected_(expected), remaining_(expected), fn_(fn), ctx_(ctx) {}
    ~barrier_base() = default;

private:
    arrival_token arrive_impl(std::ptrdiff_t n, bool drop) noexcept;
    bool wait_steady(const arrival_token& t, steady_time deadline) const noexcept;

    mutable spinlock guard_;
    std::ptrdiff_t expected_;   // participants of the next phase (guarded)
    std::ptrdiff_t remaining_;  // arrivals still missing in this phase (guarded)
    std::uint64_t phase_ = 0;   // guarded
    mutable wait_queue queue_;  // guarded
    completion_fn fn_;
    void* ctx_;
};

}  // namespace detail

template <class CompletionFunction = detail::empty_completion>
class barrier : public detail::barrier_base {
    static_assert(std::is_nothrow_invocable_v<CompletionFunction&>,
                  "the completion function must be nothrow-invocable");

public:
    using arrival_token = detail::barrier_base::arrival_token;

    static constexpr std::ptrdiff_t max() noexcept { return std::numeric_limits<std::ptrdiff_t>::max(); }

    explicit barrier(std::ptrdiff_t expected, CompletionFunction f = CompletionFunction())
        : barrier_base(expected, &call, this), completion_(std::move(f)) {
        LOOM_CHECK_USAGE(expected >= 0, "loom::barrier: negative expected count");
    }

private:
    static void call(void* self) noexcept { static_cast<barrier*>(self)->completion_(); }

    CompletionFunction completion_;
};

}  // namespace loom
