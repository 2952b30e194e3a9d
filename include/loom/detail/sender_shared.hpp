// split(sndr) and ensure_started(sndr): a sender whose one operation is shared by
// consumers through a reference-counted state on the heap.
//
//   split           copyable; the work starts when the first consumer starts, and every
//                   consumer gets the completion as const lvalues of the kept values
//   ensure_started  move-only; the work starts at once, and its one consumer gets the
//                   values as rvalues. Dropping the sender (or an operation of it that was
//                   never started) before the work ends requests stop on it.
//
// The shared state keeps the completion (stored_result) and a list of waiting consumers
// under a spin lock: a consumer that starts before the completion is listed and completed
// by the completing context; one that starts after completes at once. A consumer whose
// stop token fires while it waits takes itself off the list and sends set_stopped; under
// the lock, the list says who completes it (listed: the stop callback; taken by the
// completing context: that context, after the callback object is gone). The result is
// written before the lock is released with done set, and read by consumers only after
// they saw done under the lock (or were taken from the list under it).
//
// References: one per sender handle, one per consumer operation, and one for the running
// work (from its start until it has completed every waiting consumer).
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "loom/detail/config.hpp"
#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_storage.hpp"
#include "loom/ext/spin.hpp"
#include "loom/stop_token.hpp"

namespace loom::execution::experimental {

namespace detail {

struct shared_waiter {
    shared_waiter* next = nullptr;
    shared_waiter* prev = nullptr;
    bool in_list = false;    // guarded by the state's lock
    bool stop_seen = false;  // guarded by the state's lock
    void (*complete)(shared_waiter*) noexcept = nullptr;
};

enum class attach_result { done, stopped, waiting };

template <class S, bool Eager>
class shared_state {
    struct child_receiver {
        using receiver_concept = receiver_t;
        shared_state* st;

        template <class... As>
        void set_value(As&&... as) && noexcept {
            st->completed(set_value_t{}, std::forward<As>(as)...);
        }
        template <class E>
        void set_error(E&& e) && noexcept {
            st->completed(set_error_t{}, std::forward<E>(e));
        }
        void set_stopped() && noexcept { st->completed(set_stopped_t{}); }
        [[nodiscard]] env<prop<get_stop_token_t, inplace_stop_token>> get_env() const noexcept {
            return env<prop<get_stop_token_t, inplace_stop_token>>(
                prop<get_stop_token_t, inplace_stop_token>{{}, st->stop_src.get_token()});
        }
    };

public:
    using child_sigs = completion_signatures_of_t<S>;

    explicit shared_state(S&& s) : child_(experimental::connect(std::move(s), child_receiver{this})) {}
    shared_state(const shared_state&) = delete;
    shared_state& operator=(const shared_state&) = delete;

    void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

    /// Starts the work unless it was started before.
    void start_once() noexcept {
        if (started_.exchange(true, std::memory_order_relaxed)) return;
        add_ref();  // the running work's
        experimental::start(child_);
    }

    /// Lists `w` to be completed, unless the work is done or w's stop was seen.
    attach_result attach(shared_waiter* w) noexcept {
        lock_.lock();
        if (done_) {
            lock_.unlock();
            return attach_result::done;
        }
        if (w->stop_seen) {
            lock_.unlock();
            return attach_result::stopped;
        }
        w->next = head_;
        w->prev = nullptr;
        if (head_ != nullptr) head_->prev = w;
        head_ = w;
        w->in_list = true;
        lock_.unlock();
        return attach_result::waiting;
    }

    /// From w's stop callback: true if w was listed (now it is not, and the caller
    /// completes it with set_stopped); false if it was not (yet) listed, or the
    /// completing context took it.
    bool detach_for_stop(shared_waiter* w) noexcept {
        lock_.lock();
        if (!w->in_list) {
            w->stop_seen = true;
            lock_.unlock();
            return false;
        }
        if (w->prev != nullptr) {
            w->prev->next = w->next;
        } else {
            head_ = w->next;
        }
        if (w->next != nullptr) w->next->prev = w->prev;
        w->in_list = false;
        lock_.unlock();
        return true;
    }

    stored_result<child_sigs> result;
    inplace_stop_source stop_src;  // before child_: destroyed after it

private:
    template <class Tag, class... As>
    void completed(Tag tag, As&&... as) noexcept {
        result.store(tag, std::forward<As>(as)...);
        lock_.lock();
        done_ = true;
        shared_waiter* w = std::exchange(head_, nullptr);
        for (shared_waiter* p = w; p != nullptr; p = p->next) p->in_list = false;
        lock_.unlock();
        while (w != nullptr) {
            shared_waiter* next = w->next;  // w may be gone once it completed
            w->complete(w);
            w = next;
        }
        release();  // the running work's
    }

    std::atomic<std::size_t> refs_{1};
    std::atomic<bool> started_{false};
    ext::spin_lock lock_;
    shared_waiter* head_ = nullptr;  // guarded by lock_
    bool done_ = false;              // guarded by lock_
    connect_result_t<S, child_receiver> child_;
};

template <class S, bool Eager, class R>
class shared_operation : shared_waiter {
    using state = shared_state<S, Eager>;
    using token_type = stop_token_of_t<env_of_t<R>>;

    struct on_stop {
        shared_operation* op;
        void operator()() noexcept { op->stop_requested(); }
    };

public:
    using operation_state_concept = operation_state_t;

    /// Takes over one reference of `st`.
    shared_operation(state* st, R r) noexcept(std::is_nothrow_move_constructible_v<R>)
        : rcvr_(std::move(r)), st_(st) {
        complete = &complete_waiter;
    }
    shared_operation(const shared_operation&) = delete;
    shared_operation& operator=(const shared_operation&) = delete;
    ~shared_operation() {
        if constexpr (Eager) {
            if (!started_) st_->stop_src.request_stop();  // nobody will take the result
        }
        st_->release();
    }

    void start() & noexcept {
        started_ = true;
        const token_type token = get_stop_token(experimental::get_env(rcvr_));
        if (token.stop_requested()) {
            send_stopped();
            return;
        }
        on_stop_.emplace(token, on_stop{this});
        switch (st_->attach(this)) {
            case attach_result::done:
                on_stop_.reset();
                deliver();
                return;
            case attach_result::stopped:
                on_stop_.reset();
                send_stopped();
                return;
            case attach_result::waiting:
                break;
        }
        if constexpr (!Eager) st_->start_once();
    }

private:
    void stop_requested() noexcept {
        if (!st_->detach_for_stop(this)) return;
        on_stop_.reset();  // from inside its own execution: allowed, returns at once
        send_stopped();
    }
    static void complete_waiter(shared_waiter* w) noexcept {
        auto* self = static_cast<shared_operation*>(w);
        self->on_stop_.reset();  // waits for a stop callback running on another thread
        self->deliver();
    }
    void send_stopped() noexcept {
        if constexpr (Eager) st_->stop_src.request_stop();  // the one consumer has gone
        experimental::set_stopped(std::move(rcvr_));
    }
    void deliver() noexcept {
        if constexpr (Eager) {
            st_->result.replay_move(std::move(rcvr_));
        } else {
            st_->result.replay_copy(std::move(rcvr_));
        }
    }

    R rcvr_;
    state* st_;
    std::optional<stop_callback_for_t<token_type, on_stop>> on_stop_;
    bool started_ = false;
};

/// What a consumer receives: the kept arguments as rvalues (ensure_started) or as const
/// lvalues (split).
template <bool Eager>
struct delivered_signature {
    template <class Sig>
    struct apply : std::conditional_t<Eager, decayed_signature<Sig>, const_ref_signature<Sig>> {};
};

template <class S, bool Eager>
class shared_sender {
    using state = shared_state<S, Eager>;
    using child_sigs = completion_signatures_of_t<S>;

public:
    using sender_concept = sender_t;
    using completion_signatures =
        merge_signatures_t<transform_signatures_t<child_sigs, delivered_signature<Eager>::template apply>,
                           storing_error_signatures<child_sigs>, experimental::completion_signatures<set_stopped_t()>>;

    explicit shared_sender(S&& s) : st_(new state(std::move(s))) {
        if constexpr (Eager) st_->start_once();
    }
    shared_sender(const shared_sender& o) noexcept
        requires(!Eager)
        : st_(o.st_) {
        if (st_ != nullptr) st_->add_ref();
    }
    shared_sender(shared_sender&& o) noexcept : st_(std::exchange(o.st_, nullptr)) {}
    shared_sender& operator=(shared_sender o) noexcept {
        std::swap(st_, o.st_);
        return *this;
    }
    ~shared_sender() {
        if (st_ == nullptr) return;
        if constexpr (Eager) st_->stop_src.request_stop();  // dropped unconnected
        st_->release();
    }

    template <receiver R>
    shared_operation<S, Eager, std::decay_t<R>> connect(R&& r) && {
        LOOM_CHECK_USAGE(st_ != nullptr, "connect of a moved-from split/ensure_started sender");
        return {std::exchange(st_, nullptr), std::forward<R>(r)};
    }
    template <receiver R>
        requires(!Eager)
    shared_operation<S, Eager, std::decay_t<R>> connect(R&& r) const& {
        LOOM_CHECK_USAGE(st_ != nullptr, "connect of a moved-from split sender");
        st_->add_ref();
        return {st_, std::forward<R>(r)};
    }

private:
    state* st_;
};

}  // namespace detail

struct split_t {
    template <sender S>
    auto operator()(S&& s) const {
        return detail::shared_sender<std::decay_t<S>, false>(std::decay_t<S>(std::forward<S>(s)));
    }
    auto operator()() const noexcept { return detail::bind_closure<split_t>(); }
};
struct ensure_started_t {
    template <sender S>
    auto operator()(S&& s) const {
        return detail::shared_sender<std::decay_t<S>, true>(std::decay_t<S>(std::forward<S>(s)));
    }
    auto operator()() const noexcept { return detail::bind_closure<ensure_started_t>(); }
};

/// split(sndr): a copyable sender; all its consumers share one run of sndr.
inline constexpr split_t split{};
/// ensure_started(sndr): starts sndr now; the returned sender gets its completion.
inline constexpr ensure_started_t ensure_started{};

}  // namespace loom::execution::experimental
