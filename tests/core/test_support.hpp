// Helpers for core tests that drive the scheduler through the ext interface only.
#pragma once

#include <loom/ext/scheduler.hpp>

#include <atomic>
#include <utility>

namespace loom_test {

/// Submits `f` as a task and waits (parking or blocking) until it has run.
template <class F>
void run_in_task(F&& f) {
    loom::ext::wait_slot done;
    loom::ext::submit(loom::ext::make_task([&] {
        f();
        done.notify();
    }));
    done.wait();
}

/// Counts down to zero and notifies one waiter then.
class countdown {
public:
    explicit countdown(long n) : left_(n) {
        if (n == 0) slot_.notify();
    }
    void arrive() {
        if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) slot_.notify();
    }
    void wait() { slot_.wait(); }

private:
    std::atomic<long> left_;
    loom::ext::wait_slot slot_;
};

}  // namespace loom_test
