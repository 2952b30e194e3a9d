// The promise type of a coroutine that returns loom::future<T> or loom::shared_future<T>
// (loom/coroutine.hpp names it in std::coroutine_traits). Such a coroutine starts at
// once, in its caller, and runs until its first suspension; the caller then gets the
// future. Its outcome (co_return value or escaping exception) is kept in the frame
// until the end, and the future becomes ready only after the frame is destroyed: when
// a waiter wakes, the coroutine's locals and parameters are gone (a lock a parameter
// held is released, a reference it kept is no longer used).
//
// Two ways to the end. Usually the coroutine does not suspend at its end: the final
// awaiter moves the outcome into the state without making it ready, and notes the
// state in the frame record's header; the coroutine then flows off its end, which
// destroys the frame in the coroutine's own code, and operator delete, the last step
// of that, frees the record and only then makes the state ready. That is possible when
// operator new made this frame (frame_record(): then operator delete is sure to run)
// and the outcome moves without throwing. Otherwise the coroutine suspends at its end
// and finish() destroys the frame through its handle and publishes the outcome after.
// Flowing off saves the call of the frame's destroy function and its second dispatch
// on the suspension index: 591 -> 557 instructions per hop of a chain of coroutines
// each awaiting the one before (callgrind, bench_core_coro_loom --style await; 523
// since the end of a coroutine keeps its waiter's resumption on its worker).
#pragma once

#include <coroutine>
#include <exception>
#include <future>
#include <type_traits>
#include <utility>

#include "loom/detail/coro_frame.hpp"
#include "loom/detail/coro_result.hpp"
#include "loom/detail/shared_state.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

/// R is future<T> or shared_future<T>.
template <class R>
class future_promise : public coro_frame_allocation,
                       public resumable_frame,
                       public coro_value_slot<future_value_t<R>> {
public:
    using value_type = future_value_t<R>;

    future_promise() = default;
    future_promise(const future_promise&) = delete;
    future_promise& operator=(const future_promise&) = delete;
    ~future_promise() {
        if (st_ != nullptr) [[unlikely]] abandon();
    }

    // Called once, right after the promise is built: a failure here (bad_alloc) ends
    // the call before the body starts, and the frame with it.
    R get_return_object() {
        st_ = new shared_state<value_type>(2);  // the returned future + this promise
        return state_access::adopt<R>(st_);
    }
    std::suspend_never initial_suspend() const noexcept { return {}; }

    struct final_awaiter {
        future_promise& promise;
        bool await_ready() const noexcept { return promise.stage_to_flow_off(); }
        template <class P>
        void await_suspend(std::coroutine_handle<P> h) const noexcept {
            finish(h, nullptr);
        }
        void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {*this}; }

    // The frame's last step when it flows off its end: the state noted in the record's
    // header (stage_to_flow_off) becomes ready once the record is free. On every other
    // way to here the header names nothing (finish clears it; operator new's record
    // starts with none).
    static void operator delete(void* frame, std::size_t size) noexcept {
        ext::task* r = record_of(frame);
        auto* st = static_cast<state_base*>(std::exchange(r->owner, nullptr));
        coro_frame_allocation::operator delete(frame, size);
        if (st != nullptr) {
            // The coroutine's end is its task's end too: a coroutine returning a future
            // runs as its own resumption task, or in its caller's until its first
            // suspension, when nobody can have registered with the state yet.
            st->publish_staged_last();
            st->release();
        }
    }

protected:
    /// Destroys the frame, then makes the future ready with the outcome, then frees
    /// `free_after` (a task record that must outlive the pending future, or null).
    template <class P>
    static void finish(std::coroutine_handle<P> h, ext::task* free_after) noexcept {
        future_promise& p = h.promise();
        // A resumption left the promise's address there; operator delete must find none.
        if (ext::task* r = p.frame_record()) r->owner = nullptr;
        shared_state<value_type>* st = std::exchange(p.st_, nullptr);
        // From h.destroy() on, the frame (with the awaiter that called this) is gone:
        // only locals of this function are used.
        if constexpr (coro_result<value_type>::nothrow_movable) {
            // gcc 12 with -fsanitize=address (the asan preset) loses the tag that says
            // which member of the outcome's union lives and warns that the destructor
            // may read an exception_ptr (or a unique_ptr value) never constructed; every
            // path constructs the member the tag names (coro_result's move).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
            coro_result<value_type> outcome(std::move(p.result));
            h.destroy();
            outcome.publish(st);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
        } else {
            // A value whose move may throw is moved into the state from the frame, so
            // it is published before the parameters are destroyed.
            p.result.publish(st);
            h.destroy();
        }
        st->release();
        if (free_after != nullptr) ext::free_task(free_after);
    }

    shared_state<value_type>* st_ = nullptr;

private:
    // The final awaiter's test: whether the coroutine may flow off its end (see the top
    // of this file); if so, the outcome is in the state, not ready, and the record's
    // header names the state, whose reference operator delete releases.
    bool stage_to_flow_off() noexcept {
        if constexpr (!coro_result<value_type>::nothrow_movable) {
            return false;
        } else {
            ext::task* r = this->frame_record();
            if (r == nullptr) return false;
            shared_state<value_type>* st = std::exchange(st_, nullptr);
            this->result.stage(st);
            r->owner = static_cast<state_base*>(st);
            return true;
        }
    }

    // Only a frame destroyed before its end still holds the state: one whose
    // get_return_object failed, or (never in loom) one destroyed while suspended.
    [[gnu::cold, gnu::noinline]] void abandon() noexcept {
        st_->set_exception(std::make_exception_ptr(std::future_error(std::future_errc::broken_promise)));
        std::exchange(st_, nullptr)->release();
    }
};

}  // namespace loom::detail
