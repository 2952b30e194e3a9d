// loom::channel<T>: a FIFO between tasks, bounded or unbounded, that can be closed.
// send() waits while a bounded channel is full; receive() waits while it is empty and
// open (receive_for / receive_until: at most until a deadline). Waiting parks a task
// (blocks a thread outside the pool).
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "loom/condition_variable.hpp"
#include "loom/mutex.hpp"

namespace loom {

template <class T>
class channel {
public:
    /// An unbounded channel.
    channel() = default;
    /// A channel holding at most `capacity` values (0 means unbounded).
    explicit channel(std::size_t capacity) : capacity_(capacity) {}
    channel(const channel&) = delete;
    channel& operator=(const channel&) = delete;

    /// Waits for room, then appends v. Returns false (dropping v) if the channel is
    /// or becomes closed.
    bool send(T v) {
        std::unique_lock lk(m_);
        not_full_.wait(lk, [&] { return closed_ || !full(); });
        if (closed_) return false;
        q_.push_back(std::move(v));
        lk.unlock();
        not_empty_.notify_one();
        return true;
    }
    bool try_send(T v) {
        std::unique_lock lk(m_);
        if (closed_ || full()) return false;
        q_.push_back(std::move(v));
        lk.unlock();
        not_empty_.notify_one();
        return true;
    }
    /// Waits for a value; returns nullopt once the channel is closed and drained.
    std::optional<T> receive() {
        std::unique_lock lk(m_);
        not_empty_.wait(lk, [&] { return closed_ || !q_.empty(); });
        return take(lk);
    }
    /// receive() that gives up once `d` has passed (steady_clock). nullopt: no value
    /// came in time, or the channel is closed and drained (is_closed() tells which).
    template <class Rep, class Period>
    std::optional<T> receive_for(const std::chrono::duration<Rep, Period>& d) {
        return receive_until(detail::deadline_after(d));
    }
    /// As receive_for, until `t` has passed on its clock.
    template <class Clock, class Duration>
    std::optional<T> receive_until(const std::chrono::time_point<Clock, Duration>& t) {
        std::unique_lock lk(m_);
        if (!not_empty_.wait_until(lk, t, [&] { return closed_ || !q_.empty(); })) return std::nullopt;
        return take(lk);
    }
    std::optional<T> try_receive() {
        std::unique_lock lk(m_);
        return take(lk);
    }
    /// No more sends; waiting senders fail, receivers drain what is left.
    void close() {
        {
            std::lock_guard lk(m_);
            closed_ = true;
        }
        not_empty_.notify_all();
        not_full_.notify_all();
    }
    [[nodiscard]] bool is_closed() const {
        std::lock_guard lk(m_);
        return closed_;
    }
    [[nodiscard]] std::size_t size() const {
        std::lock_guard lk(m_);
        return q_.size();
    }

private:
    [[nodiscard]] bool full() const { return capacity_ != 0 && q_.size() >= capacity_; }
    std::optional<T> take(std::unique_lock<mutex>& lk) {
        if (q_.empty()) return std::nullopt;
        std::optional<T> v(std::move(q_.front()));
        q_.pop_front();
        lk.unlock();
        not_full_.notify_one();
        return v;
    }

    mutable mutex m_;
    condition_variable not_empty_;
    condition_variable not_full_;
    std::deque<T> q_;
    std::size_t capacity_ = 0;
    bool closed_ = false;
};

}  // namespace loom
