// Helpers of the sender tests: an outcome as text, a sender that waits for a stop
// request, and a scheduler that runs its work on one thread of its own (outside loom's
// pool), so tests can see which context ran what.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "loom/sender.hpp"

namespace loom_test {

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;

/// "value:<v>", "value" (no values), "error:<what>", "error:int:<n>" or "stopped", from
/// sync_wait of `s` (a sender of at most one int-like value).
template <class S>
std::string outcome(S&& s) {
    try {
        auto r = tt::sync_wait(std::forward<S>(s));
        if (!r.has_value()) return "stopped";
        using tuple_t = std::remove_cvref_t<decltype(*r)>;
        if constexpr (std::tuple_size_v<tuple_t> == 0) {
            return "value";
        } else {
            return "value:" + std::to_string(std::get<0>(*r));
        }
    } catch (const std::exception& e) {
        return std::string("error:") + e.what();
    } catch (int e) {
        return "error:int:" + std::to_string(e);
    }
}

inline std::exception_ptr test_error(const char* what = "e") {
    return std::make_exception_ptr(std::runtime_error(what));
}

/// Completes with set_stopped once its receiver's stop token asks to stop (registered
/// with a stop callback: no polling), and sets *done then.
struct wait_for_stop {
    using sender_concept = ex::sender_t;
    using completion_signatures = ex::completion_signatures<ex::set_value_t(int), ex::set_stopped_t()>;

    std::atomic<bool>* done = nullptr;

    template <class R>
    struct operation {
        using operation_state_concept = ex::operation_state_t;
        using token_type = ex::stop_token_of_t<ex::env_of_t<R>>;
        struct on_stop {
            operation* op;
            void operator()() noexcept { op->stop(); }
        };

        R rcvr;
        std::atomic<bool>* done;
        std::optional<ex::stop_callback_for_t<token_type, on_stop>> cb;
        // 0: registering the callback, 1: registered, 2: stop seen while registering. A
        // callback that runs inside cb.emplace (stop requested before start) must not
        // complete there: the completion may destroy the operation under the constructor.
        std::atomic<int> phase{0};

        void start() & noexcept {
            cb.emplace(ex::get_stop_token(ex::get_env(rcvr)), on_stop{this});
            if (phase.exchange(1) == 2) {
                cb.reset();
                finish();
            }
        }
        void stop() noexcept {
            int expected = 0;
            if (phase.compare_exchange_strong(expected, 2)) return;
            finish();
        }
        void finish() noexcept {
            if (done != nullptr) done->store(true);
            ex::set_stopped(std::move(rcvr));
        }
    };

    template <class R>
    operation<std::decay_t<R>> connect(R&& r) const {
        return {std::forward<R>(r), done, std::nullopt, {0}};
    }
};

/// A scheduler whose work runs on one dedicated std::thread (not a loom worker).
class thread_scheduler_loop {
public:
    thread_scheduler_loop() : thread_([this] { run(); }) {}
    thread_scheduler_loop(const thread_scheduler_loop&) = delete;
    thread_scheduler_loop& operator=(const thread_scheduler_loop&) = delete;
    ~thread_scheduler_loop() {
        {
            std::lock_guard<std::mutex> g(m_);
            stop_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

    void post(std::function<void()> f) {
        {
            std::lock_guard<std::mutex> g(m_);
            q_.push_back(std::move(f));
        }
        cv_.notify_one();
    }
    [[nodiscard]] std::thread::id id() const noexcept { return thread_.get_id(); }

    class scheduler {
    public:
        using scheduler_concept = ex::scheduler_t;
        explicit scheduler(thread_scheduler_loop* l) noexcept : loop_(l) {}

        struct sender {
            using sender_concept = ex::sender_t;
            using completion_signatures = ex::completion_signatures<ex::set_value_t()>;
            thread_scheduler_loop* loop;

            template <class R>
            struct operation {
                using operation_state_concept = ex::operation_state_t;
                R rcvr;
                thread_scheduler_loop* loop;
                void start() & noexcept {
                    loop->post([this] { ex::set_value(std::move(rcvr)); });
                }
            };
            template <class R>
            operation<std::decay_t<R>> connect(R&& r) const {
                return {std::forward<R>(r), loop};
            }
        };
        [[nodiscard]] sender schedule() const noexcept { return {loop_}; }
        friend bool operator==(const scheduler&, const scheduler&) noexcept = default;

    private:
        thread_scheduler_loop* loop_;
    };
    scheduler get_scheduler() noexcept { return scheduler(this); }

private:
    void run() {
        std::unique_lock<std::mutex> lk(m_);
        for (;;) {
            cv_.wait(lk, [this] { return stop_ || !q_.empty(); });
            if (q_.empty()) return;
            auto f = std::move(q_.front());
            q_.pop_front();
            lk.unlock();
            f();
            lk.lock();
        }
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> q_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace loom_test
