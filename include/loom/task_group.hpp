// Structured fork-join, cheaper than futures: loom::task_group (spawn children, wait
// for all of them) and loom::fork_join(f1, f2) (run f1 here and f2 as a child, as
// rayon::join). When nothing was stolen, spawn + wait cost no atomic
// read-modify-write: the owner runs its own children inline from its deque and only
// the children that ran elsewhere are counted atomically.
// Protocol and its proof: docs/protocols/fork_join.md.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/ext/trace.hpp"

namespace loom {

/// A set of child tasks that one owner (the task or thread that calls wait()) spawns
/// and waits for. spawn() and wait() may only be called by the owner; a child that
/// wants to add work creates its own task_group. The first exception thrown by a child
/// is rethrown by wait(); wait() resets the group, which can then be reused. The
/// destructor waits for children still running (dropping an uncollected exception).
class task_group {
public:
    task_group() noexcept = default;
    task_group(const task_group&) = delete;
    task_group& operator=(const task_group&) = delete;
    ~task_group() {
        if (spawned_ != 0) {
            try {
                wait();
            } catch (...) {  // NOLINT(bugprone-empty-catch): nobody left to tell
            }
        }
    }

    /// Runs f() as a child task. On a worker the child goes to this worker's deque,
    /// where wait() finds it again if no other worker took it meanwhile.
    template <class F>
    void spawn(F&& f, priority p = priority::normal) {
        ext::submit(make_child(std::forward<F>(f), p));  // starts the pool if needed
        ++spawned_;
    }

    /// Waits for every child spawned since the last wait(); rethrows the first
    /// exception a child threw.
    void wait() {
        // 1. Run our own children that are still on top of this worker's deque. The
        //    flag tells the child's run function not to signal the group. (Stop once
        //    all were run here: no pop and push-back of the parent's next task.)
        long ran_inline = 0;
        while (ran_inline < spawned_) {
            ext::task* t = ext::pop_local();
            if (t == nullptr) break;
            if (t->owner != this) {
                ext::push_local(t);
                break;
            }
            t->flags |= ran_by_owner;
            if (ext::tracing()) ext::trace_run_inline(t, "task");  // LOOM_TRACE: the child's slice
            else t->run(t);
            ++ran_inline;
        }
        // 2. The rest ran (or runs) elsewhere: each of them counts pending_ down by
        //    one when done; we count it up by their number once. See the comment at
        //    child_done() for why exactly one notify happens, and only if we wait.
        const long elsewhere = spawned_ - ran_inline;
        spawned_ = 0;
        if (elsewhere > 0) {
            slot_.reset();  // before the add: no child notifies before it sees the add
            if (pending_.fetch_add(elsewhere, std::memory_order_acq_rel) + elsewhere != 0) {
                slot_.wait();
            }
            // pending_ is 0 again here: the last child (or our add) brought it there.
        }
        if (failed_.load(std::memory_order_relaxed)) {
            failed_.store(false, std::memory_order_relaxed);
            std::rethrow_exception(std::exchange(error_, nullptr));
        }
    }

    /// Children spawned and not yet waited for (owner's view).
    [[nodiscard]] long spawned() const noexcept { return spawned_; }

private:
    static constexpr std::uint8_t ran_by_owner = 1;

    template <class F>
    ext::task* make_child(F&& f, priority p) {
        using closure = std::decay_t<F>;
        ext::task* t = ext::allocate_task();
        t->prio = p;
        t->owner = this;
        t->flags = 0;
        if constexpr (sizeof(closure) <= ext::task::storage_size && alignof(closure) <= 16) {
            ::new (static_cast<void*>(t->storage)) closure(std::forward<F>(f));
            t->run = &run_child<closure, true>;
        } else {
            try {
                ::new (static_cast<void*>(t->storage)) closure*(new closure(std::forward<F>(f)));
            } catch (...) {
                ext::free_task(t);
                throw;
            }
            t->run = &run_child<closure, false>;
        }
        return t;
    }

    template <class Closure, bool Inline>
    static void run_child(ext::task* t) noexcept {
        auto* g = static_cast<task_group*>(t->owner);
        const bool by_owner = (t->flags & ran_by_owner) != 0;
        Closure* c = nullptr;
        if constexpr (Inline) {
            c = t->data<Closure>();
        } else {
            c = *t->data<Closure*>();
        }
        try {
            (*c)();
        } catch (...) {
            g->fail(std::current_exception());
        }
        if constexpr (Inline) {
            c->~Closure();
        } else {
            delete c;
        }
        ext::free_task(t);
        // No final release here (ext::begin_final_release): resuming the owner on the
        // worker that ran its last child made fib(30) with fork_join 8 % slower at 2
        // workers (medians 29.5 against 27 ms); queued, the owner is usually taken back
        // by the idle worker it parked on, whose cache holds its stack.
        if (!by_owner) g->child_done();
    }

    void fail(std::exception_ptr e) noexcept {
        bool expected = false;
        if (claimed_.compare_exchange_strong(expected, true, std::memory_order_relaxed)) {
            error_ = std::move(e);
            failed_.store(true, std::memory_order_relaxed);
        }
    }

    // A child that did not run inline in the owner's wait() ends here; its last access
    // to the group. Let N be the number of such children. Each subtracts 1 once; the
    // owner adds N once, after all children were spawned. pending_ starts at 0, so
    // before the owner's add it is <= 0 and no child can see the value 1 (fetch_sub
    // returning 1 means "I brought it to 0 after the owner's add"). After the add, it
    // equals N - (children done so far). If all N were done, the owner's fetch_add
    // sees 0 after its add and does not wait, and no child notifies. Otherwise it is
    // > 0, the owner waits, and exactly one child -- the last -- sees 1 and notifies.
    // acq_rel on both sides makes every child's writes (results, error_) visible to
    // the owner after wait(): the RMWs form one release sequence on pending_.
    void child_done() noexcept {
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) slot_.notify();
    }

    std::atomic<long> pending_{0};
    ext::wait_slot slot_;
    long spawned_ = 0;  // owner only
    std::atomic<bool> claimed_{false};
    std::atomic<bool> failed_{false};
    std::exception_ptr error_;
};

namespace detail {
template <class F>
using join_result_t = std::conditional_t<std::is_void_v<std::invoke_result_t<F&>>, std::monostate,
                                         std::invoke_result_t<F&>>;

template <class F>
join_result_t<F> join_invoke(F& f) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
        std::invoke(f);
        return {};
    } else {
        return std::invoke(f);
    }
}
}  // namespace detail

/// Runs f2 as a child task and f1 here, then waits for f2 (rayon::join). Returns
/// nothing if both return void, else a pair of the results (std::monostate for a void
/// one). If f1 throws, f2 is still waited for and f1's exception is rethrown;
/// otherwise an exception of f2 is rethrown.
template <class F1, class F2>
auto fork_join(F1&& f1, F2&& f2) {
    using R1 = std::invoke_result_t<F1&>;
    using R2 = std::invoke_result_t<F2&>;
    task_group g;
    if constexpr (std::is_void_v<R1> && std::is_void_v<R2>) {
        g.spawn([&f2] { std::invoke(f2); });
        try {
            std::invoke(f1);
        } catch (...) {
            try {
                g.wait();
            } catch (...) {  // NOLINT(bugprone-empty-catch): f1's exception wins
            }
            throw;
        }
        g.wait();
    } else {
        std::optional<detail::join_result_t<F2>> r2;
        g.spawn([&f2, &r2] { r2.emplace(detail::join_invoke(f2)); });
        std::optional<detail::join_result_t<F1>> r1;
        try {
            r1.emplace(detail::join_invoke(f1));
        } catch (...) {
            try {
                g.wait();
            } catch (...) {  // NOLINT(bugprone-empty-catch): f1's exception wins
            }
            throw;
        }
        g.wait();
        return std::pair<detail::join_result_t<F1>, detail::join_result_t<F2>>(std::move(*r1), std::move(*r2));
    }
}

}  // namespace loom
