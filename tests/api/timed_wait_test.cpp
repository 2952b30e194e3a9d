// Timed waits of every type that has one: futures, latch, barrier, timed_mutex,
// condition_variable, counting_semaphore, channel, and the scheduler's wait_slot.
// Each runs in a task (which parks), on a thread outside the pool (which blocks), and
// on the test's main thread (slot 0 of a pool of several workers, else outside).
// Times are asserted only as "not before the deadline" and "not hanging".
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

#include "loom/ext/scheduler.hpp"
#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;
using loom::future_status;

// Upper bound that only catches hangs: no assertion depends on how fast a wait is.
constexpr auto hang = 10s;
constexpr auto short_wait = 20ms;

template <class F>
auto in_task(F f) {
    return loom::async(std::move(f)).get();
}

template <class F>
auto on_outside_thread(F f) {
    std::invoke_result_t<F> r{};
    std::thread t([&] { r = f(); });
    t.join();
    return r;
}

// Runs `check` (which asserts) in a task, on a thread outside the pool and here.
template <class F>
void everywhere(F check) {
    in_task([&] {
        check();
        return 0;
    });
    on_outside_thread([&] {
        check();
        return 0;
    });
    check();
}

void expect_timed_out(steady::time_point deadline) {
    const auto now = steady::now();
    EXPECT_GE(now, deadline);
    EXPECT_LT(now - deadline, hang);
}

// ---- futures -------------------------------------------------------------------------

TEST(TimedWait, FutureTimesOut) {
    everywhere([] {
        loom::promise<int> p;
        auto f = p.get_future();
        const auto deadline = steady::now() + short_wait;
        EXPECT_EQ(f.wait_for(short_wait), future_status::timeout);
        expect_timed_out(deadline);
        EXPECT_EQ(f.wait_until(steady::now() + 1ms), future_status::timeout);
        // The timed-out waiters left the state's list: setting it touches none of them.
        p.set_value(7);
        EXPECT_EQ(f.wait_for(0s), future_status::ready);
        EXPECT_EQ(f.get(), 7);
    });
}

TEST(TimedWait, FutureReadyBeforeTheDeadline) {
    everywhere([] {
        loom::promise<int> p;
        auto f = p.get_future();
        auto setter = loom::async([&p] {
            loom_test::spin_for_us(2000);
            p.set_value(3);
        });
        const auto start = steady::now();
        EXPECT_EQ(f.wait_for(hang), future_status::ready);
        EXPECT_LT(steady::now() - start, hang);
        EXPECT_EQ(f.get(), 3);
        setter.get();
    });
}

// The notification comes just before the deadline. Whenever the notifier finished
// before the deadline (it reads the clock after notifying), the wait must report it:
// the timer could only have fired later. Rounds where the notifier was late (a loaded
// machine) may end either way and are only counted.
TEST(TimedWait, NotifiedJustBeforeTheDeadline) {
    int late = 0;
    for (int round = 0; round < 20; ++round) {
        loom::promise<void> p;
        auto f = p.get_future();
        loom::counting_semaphore<1> s(0);
        const auto deadline = steady::now() + 20ms;
        std::atomic<bool> in_time{false};
        auto notifier = loom::async([&] {
            while (steady::now() < deadline - 2ms) {
            }
            p.set_value();
            s.release();
            in_time = steady::now() < deadline;
        });
        const auto status = f.wait_until(deadline);
        const bool got = s.try_acquire_until(deadline);
        notifier.get();
        if (!in_time.load()) {
            ++late;
            continue;
        }
        EXPECT_EQ(status, future_status::ready) << "round " << round;
        EXPECT_TRUE(got) << "round " << round;
    }
    RecordProperty("late_rounds", late);
}

TEST(TimedWait, FutureUntilOtherClocks) {
    everywhere([] {
        loom::promise<void> p;
        auto f = p.get_future();
        const auto t = std::chrono::system_clock::now() + short_wait;
        EXPECT_EQ(f.wait_until(t), future_status::timeout);
        EXPECT_GE(std::chrono::system_clock::now(), t);
        // A coarse duration type, and a floating one.
        const auto coarse = std::chrono::time_point_cast<std::chrono::milliseconds>(steady::now()) + 5ms;
        EXPECT_EQ(f.wait_until(coarse), future_status::timeout);
        EXPECT_GE(steady::now(), coarse);
        EXPECT_EQ(f.wait_for(std::chrono::duration<double>(0.002)), future_status::timeout);
        p.set_value();
        EXPECT_EQ(f.wait_until(std::chrono::system_clock::now() + hang), future_status::ready);
    });
}

TEST(TimedWait, ZeroNegativeAndPastTimeoutsOnlyCheck) {
    everywhere([] {
        loom::promise<int> p;
        auto f = p.get_future().share();
        EXPECT_EQ(f.wait_for(0s), future_status::timeout);
        EXPECT_EQ(f.wait_for(-5ms), future_status::timeout);
        EXPECT_EQ(f.wait_for(std::chrono::duration<double>(-1.0)), future_status::timeout);
        EXPECT_EQ(f.wait_until(steady::now() - 1h), future_status::timeout);
        EXPECT_EQ(f.wait_until(steady::time_point::min()), future_status::timeout);
        EXPECT_EQ(f.wait_until(std::chrono::system_clock::now() - 1h), future_status::timeout);
        p.set_value(1);
        EXPECT_EQ(f.wait_for(0s), future_status::ready);
        EXPECT_EQ(f.wait_for(-5ms), future_status::ready);
        EXPECT_EQ(f.wait_until(steady::now() - 1h), future_status::ready);
        EXPECT_EQ(f.get(), 1);
    });
}

TEST(TimedWait, UnboundedDeadlinesDoNotOverflow) {
    everywhere([] {
        loom::promise<int> p;
        auto f = p.get_future().share();
        auto setter = loom::async([&p] { p.set_value(5); });
        EXPECT_EQ(f.wait_for(std::chrono::nanoseconds::max()), future_status::ready);
        EXPECT_EQ(f.wait_for(std::chrono::hours::max()), future_status::ready);
        EXPECT_EQ(f.wait_until(steady::time_point::max()), future_status::ready);
        EXPECT_EQ(f.wait_until(std::chrono::system_clock::time_point::max()), future_status::ready);
        EXPECT_EQ(f.get(), 5);
        setter.get();
    });
}

TEST(TimedWait, SharedFutureWaitersTimeOutThenSeeTheValue) {
    loom::promise<int> p;
    loom::shared_future<int> f = p.get_future().share();
    const unsigned n = 4 * loom::num_threads() + 3;
    std::atomic<unsigned> timed_out{0};
    loom::latch first_round(n);
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            if (f.wait_for(short_wait) == future_status::timeout) ++timed_out;
            first_round.count_down();
            if (f.wait_for(hang) == future_status::ready && f.get() == 9) done.count_down();
        });
    }
    first_round.wait();
    EXPECT_EQ(timed_out.load(), n);
    p.set_value(9);
    EXPECT_TRUE(done.wait_for(hang));
}

// ---- latch and barrier -------------------------------------------------------------

TEST(TimedWait, LatchWaitFor) {
    everywhere([] {
        loom::latch l(2);
        EXPECT_FALSE(l.wait_for(0s));
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(l.wait_for(short_wait));
        expect_timed_out(deadline);
        EXPECT_FALSE(l.wait_until(std::chrono::system_clock::now() + 1ms));
        auto counter = loom::async([&l] { l.count_down(2); });
        EXPECT_TRUE(l.wait_for(hang));
        EXPECT_TRUE(l.wait_for(0s));
        EXPECT_TRUE(l.wait_until(steady::now() - 1s));
        counter.get();
    });
}

TEST(TimedWait, BarrierWaitForKeepsTheToken) {
    everywhere([] {
        loom::barrier<> b(2);
        auto token = b.arrive();
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(b.wait_for(token, short_wait));
        expect_timed_out(deadline);
        EXPECT_FALSE(b.wait_until(token, std::chrono::system_clock::now() + 1ms));
        EXPECT_FALSE(b.wait_for(token, 0s));
        loom::async([&b] { b.arrive_and_drop(); }).get();
        EXPECT_TRUE(b.wait_for(token, hang));
        // The next phase has one participant left: it completes on our arrival.
        EXPECT_TRUE(b.wait_for(b.arrive(), 0s));
    });
}

// ---- timed_mutex ---------------------------------------------------------------------

TEST(TimedWait, TimedMutexTryLockFor) {
    everywhere([] {
        loom::timed_mutex m;
        loom::latch holding(1);
        loom::latch release(1);
        auto holder = loom::async([&] {
            std::lock_guard g(m);
            holding.count_down();
            release.wait();
        });
        holding.wait();
        EXPECT_FALSE(m.try_lock_for(0s));
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(m.try_lock_for(short_wait));
        expect_timed_out(deadline);
        EXPECT_FALSE(m.try_lock_until(std::chrono::system_clock::now() + 1ms));
        {
            std::unique_lock lk(m, std::chrono::milliseconds(1));
            EXPECT_FALSE(lk.owns_lock());
        }
        release.count_down();
        EXPECT_TRUE(m.try_lock_for(hang));
        m.unlock();
        holder.get();
        EXPECT_TRUE(m.try_lock_until(steady::now() - 1s));  // free: a past deadline still tries
        m.unlock();
    });
}

TEST(TimedWait, TimedMutexIsHandedToATimedWaiter) {
    everywhere([] {
        loom::timed_mutex m;
        m.lock();
        auto holder = loom::async([&m] {
            loom_test::spin_for_us(2000);
            m.unlock();
        });
        EXPECT_TRUE(m.try_lock_for(hang));
        m.unlock();
        holder.get();
    });
}

// ---- condition_variable --------------------------------------------------------------

TEST(TimedWait, ConditionVariableTimesOut) {
    everywhere([] {
        loom::mutex m;
        loom::condition_variable cv;
        std::unique_lock lk(m);
        const auto deadline = steady::now() + short_wait;
        EXPECT_EQ(cv.wait_for(lk, short_wait), std::cv_status::timeout);
        expect_timed_out(deadline);
        EXPECT_TRUE(lk.owns_lock());
        EXPECT_FALSE(cv.wait_for(lk, 1ms, [] { return false; }));
        EXPECT_EQ(cv.wait_until(lk, std::chrono::system_clock::now() + 1ms), std::cv_status::timeout);
        EXPECT_FALSE(cv.wait_until(lk, steady::now() - 1s, [] { return false; }));
        EXPECT_TRUE(cv.wait_for(lk, 0s, [] { return true; }));
        lk.unlock();
        cv.notify_all();  // the timed-out waiters left the queue: this finds nobody
    });
}

TEST(TimedWait, ConditionVariableNotifiedBeforeTheDeadline) {
    everywhere([] {
        loom::mutex m;
        loom::condition_variable cv;
        bool ready = false;
        std::unique_lock lk(m);
        auto notifier = loom::async([&] {
            loom_test::spin_for_us(2000);
            {
                std::lock_guard g(m);
                ready = true;
            }
            cv.notify_one();
        });
        EXPECT_TRUE(cv.wait_for(lk, hang, [&] { return ready; }));
        lk.unlock();
        notifier.get();
    });
}

// ---- counting_semaphore --------------------------------------------------------------

TEST(TimedWait, SemaphoreTryAcquireFor) {
    everywhere([] {
        loom::counting_semaphore<4> s(0);
        EXPECT_FALSE(s.try_acquire_for(0s));
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(s.try_acquire_for(short_wait));
        expect_timed_out(deadline);
        EXPECT_FALSE(s.try_acquire_until(std::chrono::system_clock::now() + 1ms));
        s.release();
        EXPECT_TRUE(s.try_acquire_for(0s));
        auto releaser = loom::async([&s] {
            loom_test::spin_for_us(2000);
            s.release(2);
        });
        EXPECT_TRUE(s.try_acquire_for(hang));
        EXPECT_TRUE(s.try_acquire_until(steady::now() + hang));
        EXPECT_FALSE(s.try_acquire());  // exactly the two units released
        releaser.get();
    });
}

// ---- channel -------------------------------------------------------------------------

TEST(TimedWait, ChannelReceiveFor) {
    everywhere([] {
        loom::channel<int> c;
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(c.receive_for(short_wait).has_value());
        expect_timed_out(deadline);
        EXPECT_FALSE(c.is_closed());
        EXPECT_FALSE(c.receive_until(std::chrono::system_clock::now() + 1ms).has_value());
        c.send(1);
        EXPECT_EQ(c.receive_for(0s), std::optional<int>(1));
        auto sender = loom::async([&c] {
            loom_test::spin_for_us(2000);
            c.send(2);
        });
        EXPECT_EQ(c.receive_for(hang), std::optional<int>(2));
        auto closer = loom::async([&c] { c.close(); });
        EXPECT_FALSE(c.receive_for(hang).has_value());
        EXPECT_TRUE(c.is_closed());
        sender.get();
        closer.get();
    });
}

// ---- the scheduler's wait_slot ---------------------------------------------------------

TEST(TimedWait, SlotIsEmptyAgainAfterATimeout) {
    everywhere([] {
        loom::ext::wait_slot slot;
        const auto deadline = steady::now() + short_wait;
        EXPECT_FALSE(slot.wait_until(deadline));
        expect_timed_out(deadline);
        EXPECT_FALSE(slot.notified());
        // A notification after the timeout is kept for the next wait.
        slot.notify();
        EXPECT_TRUE(slot.notified());
        EXPECT_TRUE(slot.wait_until(steady::now() - 1s));
        slot.wait();
    });
}

TEST(TimedWait, SlotNotifiedWhileParked) {
    everywhere([] {
        loom::ext::wait_slot slot;
        auto notifier = loom::async([&slot] {
            loom_test::spin_for_us(2000);
            slot.notify();
        });
        EXPECT_TRUE(slot.wait_until(steady::now() + hang));
        notifier.get();
    });
}

// The only worker parks the waiting task and must still wake it at its deadline
// (run alone on a one-worker pool by the api.timed_waits.one_worker entry).
TEST(TimedWait, OnlyWorkerWaitsAndTimesOut) {
    loom::promise<void> p;
    auto f = p.get_future();
    const auto status = in_task([&] {
        const auto deadline = steady::now() + short_wait;
        const auto s = f.wait_for(short_wait);
        expect_timed_out(deadline);
        return s;
    });
    EXPECT_EQ(status, future_status::timeout);
    p.set_value();
}

// Every other worker runs a task that ends only once the timed waiter has returned:
// the worker left idle (whichever it is, whether it watched the timers before or not)
// must wake the waiter at its deadline. Spinners give up after `hang` and say so.
TEST(TimedWait, DeadlineServedWhileOtherWorkersRunLongTasks) {
    for (int round = 0; round < 5; ++round) {
        loom::promise<void> never;
        auto f = never.get_future();
        std::atomic<bool> returned{false};
        auto waiter = loom::async([&] {
            const auto s = f.wait_for(5ms);
            returned = true;
            return s;
        });
        loom_test::spin_for_us(1000);  // the waiter parks, idle workers sleep
        const unsigned spinners = loom::num_threads() - 1;
        std::atomic<unsigned> gave_up{0};
        loom::latch spun(spinners);
        for (unsigned i = 0; i < spinners; ++i) {
            loom::post([&] {
                const auto end = steady::now() + hang;
                while (!returned.load() && steady::now() < end) std::this_thread::yield();
                if (!returned.load()) ++gave_up;
                spun.count_down();
            });
        }
        EXPECT_EQ(waiter.get(), future_status::timeout);
        spun.wait();
        EXPECT_EQ(gave_up.load(), 0u) << "round " << round;
        never.set_value();
    }
}

}  // namespace
