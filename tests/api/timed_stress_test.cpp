// Timed waits under load: 10^4 parked timed waiters, and notifications that race with
// deadlines. Each race checks the outcome the waiter reports against what the notifier
// gave it (a semaphore unit, a mutex), so a wait resumed twice, never, or reporting the
// wrong cause fails here (or under TSan / ASan, a node touched after its wait returned).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;
using loom::future_status;

constexpr auto hang = 10s;

// A small pseudo-random delay in microseconds, different per iteration.
unsigned jitter_us(std::uint32_t seed, unsigned max_us) {
    std::minstd_rand r(seed + 1);
    return static_cast<unsigned>(r() % (max_us + 1));
}

TEST(TimedStress, TenThousandTimedWaiters) {
    const int n = 10000 / loom_test::stress_divisor;
    std::vector<loom::promise<void>> promises(static_cast<std::size_t>(n));
    std::vector<loom::future<void>> futures;
    futures.reserve(promises.size());
    for (auto& p : promises) futures.push_back(p.get_future());
    // Even waiters are notified (their deadline is far), odd ones time out; the
    // notifications start once every waiter has begun, so all wait at the same time.
    std::vector<future_status> status(promises.size());
    std::vector<char> early(promises.size(), 0);
    loom::latch started(n);
    loom::latch finished(n);
    for (int i = 0; i < n; ++i) {
        loom::post([&, i] {
            const auto d = (i % 2 == 0) ? std::chrono::microseconds(hang) : 30ms + std::chrono::microseconds(i % 97 * 100);
            const auto deadline = steady::now() + d;
            started.count_down();
            status[static_cast<std::size_t>(i)] = futures[static_cast<std::size_t>(i)].wait_for(d);
            early[static_cast<std::size_t>(i)] = i % 2 != 0 && steady::now() < deadline;
            finished.count_down();
        });
    }
    auto notifier = loom::async([&] {
        started.wait();
        for (int i = 0; i < n; i += 2) promises[static_cast<std::size_t>(i)].set_value();
    });
    ASSERT_TRUE(finished.wait_for(hang + 20s));
    notifier.get();
    int wrong = 0, too_early = 0;
    for (int i = 0; i < n; ++i) {
        const auto want = i % 2 == 0 ? future_status::ready : future_status::timeout;
        if (status[static_cast<std::size_t>(i)] != want) ++wrong;
        if (early[static_cast<std::size_t>(i)] != 0) ++too_early;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(too_early, 0);
    // The timed-out waiters are gone: setting their states must not reach them.
    for (int i = 1; i < n; i += 2) promises[static_cast<std::size_t>(i)].set_value();
    for (auto& f : futures) EXPECT_EQ(f.wait_for(0s), future_status::ready);
}

// A unit released as the waiter's deadline passes is either taken by the waiter (which
// then says so) or left in the semaphore: never lost, never counted twice.
TEST(TimedStress, SemaphoreReleaseRacesTheDeadline) {
    const int rounds = 2000 / loom_test::stress_divisor;
    int acquired = 0;
    for (int i = 0; i < rounds; ++i) {
        loom::counting_semaphore<2> s(0);
        const auto seed = static_cast<std::uint32_t>(i);
        auto waiter = loom::async([&s, seed] { return s.try_acquire_for(std::chrono::microseconds(jitter_us(seed, 200))); });
        auto releaser = loom::async([&s, seed] {
            loom_test::spin_for_us(static_cast<int>(jitter_us(seed * 7, 200)));
            s.release();
        });
        releaser.get();
        const bool got = waiter.get();
        acquired += got ? 1 : 0;
        EXPECT_EQ(got, !s.try_acquire()) << "round " << i;
        EXPECT_FALSE(s.try_acquire()) << "round " << i;
    }
    RecordProperty("acquired_before_deadline", acquired);
}

// A mutex unlocked as a timed waiter's deadline passes is handed to it (it reports
// true and owns it) or stays free (it reports false); it never stays locked.
TEST(TimedStress, MutexUnlockRacesTheDeadline) {
    const int rounds = 2000 / loom_test::stress_divisor;
    int guarded = 0;  // written only by whoever holds the mutex
    int wins = 0;
    for (int i = 0; i < rounds; ++i) {
        loom::timed_mutex m;
        m.lock();
        const auto seed = static_cast<std::uint32_t>(i);
        auto waiter = loom::async([&m, &guarded, seed] {
            if (!m.try_lock_for(std::chrono::microseconds(jitter_us(seed, 200)))) return false;
            ++guarded;
            m.unlock();
            return true;
        });
        auto holder = loom::async([&m, &guarded, seed] {
            loom_test::spin_for_us(static_cast<int>(jitter_us(seed * 7, 200)));
            ++guarded;
            m.unlock();
        });
        holder.get();
        wins += waiter.get() ? 1 : 0;
        ASSERT_TRUE(m.try_lock()) << "round " << i << ": the mutex stayed locked";
        m.unlock();
    }
    EXPECT_EQ(guarded, rounds + wins);
}

// notify_one racing a deadline: the waiter either reports the notification or has left
// the queue before the notifier looked; either way nothing waits on afterwards.
TEST(TimedStress, ConditionVariableNotifyRacesTheDeadline) {
    const int rounds = 2000 / loom_test::stress_divisor;
    for (int i = 0; i < rounds; ++i) {
        loom::mutex m;
        loom::condition_variable cv;
        bool flag = false;
        const auto seed = static_cast<std::uint32_t>(i);
        auto waiter = loom::async([&, seed] {
            std::unique_lock lk(m);
            return cv.wait_for(lk, std::chrono::microseconds(jitter_us(seed, 200)), [&] { return flag; });
        });
        auto notifier = loom::async([&, seed] {
            loom_test::spin_for_us(static_cast<int>(jitter_us(seed * 7, 200)));
            {
                std::lock_guard g(m);
                flag = true;
            }
            cv.notify_one();
        });
        notifier.get();
        const bool saw = waiter.get();
        std::lock_guard g(m);
        EXPECT_TRUE(!saw || flag);
    }
}

// A promise set as the deadline passes: ready means the value is there, timeout means
// the deadline had passed.
TEST(TimedStress, FutureSetRacesTheDeadline) {
    const int rounds = 2000 / loom_test::stress_divisor;
    for (int i = 0; i < rounds; ++i) {
        loom::promise<int> p;
        auto f = p.get_future();
        const auto seed = static_cast<std::uint32_t>(i);
        auto waiter = loom::async([&f, seed] {
            const auto d = std::chrono::microseconds(jitter_us(seed, 200));
            const auto deadline = steady::now() + d;
            const auto s = f.wait_for(d);
            return s == future_status::ready ? f.is_ready() : steady::now() >= deadline;
        });
        auto setter = loom::async([&p, seed] {
            loom_test::spin_for_us(static_cast<int>(jitter_us(seed * 7, 200)));
            p.set_value(1);
        });
        setter.get();
        EXPECT_TRUE(waiter.get()) << "round " << i;
        EXPECT_EQ(f.get(), 1);
    }
}

// Many waiters leave one shared state's list while continuations join it and others
// wait on: the list stays whole, and setting it reaches exactly those still on it.
TEST(TimedStress, WaitersLeaveASharedStateWhileOthersJoin) {
    loom::promise<int> p;
    loom::shared_future<int> f = p.get_future().share();
    const int waiters = static_cast<int>(2 * loom::num_threads() + 6);
    const int rounds = 200 / loom_test::stress_divisor + 5;
    std::atomic<int> continuations{0};
    std::atomic<int> ready{0};
    loom::latch halfway(waiters);
    loom::latch done(waiters);
    for (int w = 0; w < waiters; ++w) {
        loom::post([&, w] {
            for (int r = 0; r < rounds; ++r) {
                if (r == rounds / 2) halfway.count_down();
                const auto us = jitter_us(static_cast<std::uint32_t>(w * rounds + r), 50);
                (void)f.wait_for(std::chrono::microseconds(us));
                if (r % 16 == 0) (void)f.then([&](loom::shared_future<int>) { ++continuations; });
            }
            if (f.wait_for(hang) == future_status::ready && f.get() == 4) ++ready;
            done.count_down();
        });
    }
    ASSERT_TRUE(halfway.wait_for(hang));  // the set comes in the middle of the storm
    p.set_value(4);
    ASSERT_TRUE(done.wait_for(hang));
    EXPECT_EQ(ready.load(), waiters);
    const int expected = waiters * ((rounds + 15) / 16);
    for (auto start = steady::now(); continuations.load() != expected && steady::now() - start < hang;)
        std::this_thread::yield();
    EXPECT_EQ(continuations.load(), expected);
}

}  // namespace
