// pool_scheduler: schedule() on loom's pool. Starting the schedule sender submits one
// task record (from the thread's record cache, no allocator call in steady state) whose
// closure is a pointer to the operation state; the worker that runs it completes the
// receiver there. Everything else lives in the operation state.
//
// Stop: a receiver whose stop token asks to stop by the time the operation starts, or
// by the time its task runs, gets set_stopped instead of set_value (a queued task cannot
// be taken back, so a stop request in between is seen when it runs).
#pragma once

#include <exception>
#include <new>
#include <utility>

#include "loom/detail/sender_concepts.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::execution::experimental {

class pool_scheduler;

namespace detail {

class schedule_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures = experimental::completion_signatures<set_value_t(), set_error_t(std::exception_ptr),
                                                                      set_stopped_t()>;

    explicit schedule_sender(loom::priority p) noexcept : prio_(p) {}

    template <class R>
    class operation {
    public:
        using operation_state_concept = operation_state_t;

        operation(R r, loom::priority p) : rcvr_(std::move(r)), prio_(p) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept {
            if (get_stop_token(experimental::get_env(rcvr_)).stop_requested()) {
                experimental::set_stopped(std::move(rcvr_));
                return;
            }
            ext::task* t = nullptr;
            std::exception_ptr error;
            try {
                t = ext::allocate_task();
            } catch (...) {
                error = std::current_exception();
            }
            if (t == nullptr) {
                experimental::set_error(std::move(rcvr_), std::move(error));
                return;
            }
            t->prio = prio_;
            ::new (t->storage_address()) operation*(this);
            t->run = &run;
            ext::submit(t);  // starts the pool if needed; from here on the task owns us
        }

    private:
        static void run(ext::task* t) noexcept {
            operation* self = *t->data<operation*>();
            ext::free_task(t);
            if (get_stop_token(experimental::get_env(self->rcvr_)).stop_requested()) {
                experimental::set_stopped(std::move(self->rcvr_));
            } else {
                experimental::set_value(std::move(self->rcvr_));
            }
        }

        R rcvr_;
        loom::priority prio_;
    };

    template <receiver R>
    operation<std::decay_t<R>> connect(R&& r) const {
        return {std::forward<R>(r), prio_};
    }

    struct attributes {
        loom::priority prio;
        pool_scheduler query(get_completion_scheduler_t<set_value_t> /*unused*/) const noexcept;
    };
    [[nodiscard]] attributes get_env() const noexcept { return {prio_}; }

private:
    loom::priority prio_;
};

}  // namespace detail

/// The scheduler of loom's pool: work scheduled on it runs as a task with the
/// scheduler's priority (high: taken before any normal task, locally and when stealing).
class pool_scheduler {
public:
    using scheduler_concept = scheduler_t;

    constexpr pool_scheduler() noexcept = default;
    constexpr explicit pool_scheduler(loom::priority p) noexcept : prio_(p) {}

    /// A sender that completes with set_value() on a worker of the pool.
    [[nodiscard]] detail::schedule_sender schedule() const noexcept { return detail::schedule_sender(prio_); }

    /// The same pool, scheduling with priority `p`.
    [[nodiscard]] constexpr pool_scheduler with_priority(loom::priority p) const noexcept { return pool_scheduler(p); }
    [[nodiscard]] constexpr loom::priority priority() const noexcept { return prio_; }

    [[nodiscard]] constexpr forward_progress_guarantee query(get_forward_progress_guarantee_t /*unused*/) const noexcept {
        return forward_progress_guarantee::parallel;
    }

    friend constexpr bool operator==(const pool_scheduler&, const pool_scheduler&) noexcept = default;

private:
    loom::priority prio_ = loom::priority::normal;
};

/// The pool's scheduler with priority `p` (normal by default).
[[nodiscard]] constexpr pool_scheduler get_pool_scheduler(loom::priority p = loom::priority::normal) noexcept {
    return pool_scheduler(p);
}

inline pool_scheduler detail::schedule_sender::attributes::query(
    get_completion_scheduler_t<set_value_t> /*unused*/) const noexcept {
    return pool_scheduler(prio);
}

}  // namespace loom::execution::experimental
