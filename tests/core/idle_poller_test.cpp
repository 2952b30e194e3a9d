// Idle pollers (ext::add_idle_poller): called by workers with nothing to do, between
// tasks when due, and by a sleeping worker at a bounded interval while work is pending.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "test_support.hpp"

namespace {

using namespace loom;
using namespace std::chrono_literals;

// A poller whose work is done only once `ready_at` has passed: by then every worker has
// spun its budget, and all but the one that keeps polling sleep.
struct delayed_work {
    std::chrono::steady_clock::time_point ready_at;
    std::atomic<long> calls{0};
    std::atomic<bool> done{false};
    ext::wait_slot finished;

    static bool poll(void* self) noexcept {
        auto& d = *static_cast<delayed_work*>(self);
        d.calls.fetch_add(1, std::memory_order_relaxed);
        if (d.done.load(std::memory_order_relaxed)) return false;
        if (std::chrono::steady_clock::now() < d.ready_at) return true;
        d.done.store(true, std::memory_order_relaxed);
        d.finished.notify();
        return false;
    }
};

// Unregisters at the end of a test, also when an assertion returns early.
struct registration {
    int id;
    ~registration() { ext::remove_idle_poller(id); }
};

TEST(IdlePoller, SleepingWorkersWakeToPollWhileWorkIsPending) {
    ext::ensure_started();
    delayed_work work;
    work.ready_at = std::chrono::steady_clock::now() + 50ms;
    registration r{ext::add_idle_poller(&delayed_work::poll, &work, 200us)};
    ASSERT_GE(r.id, 0);
    ext::idle_poller_pending(r.id);
    // A thread outside the pool waits, so no worker is kept awake by the waiter: without
    // the watcher's interval every worker would sleep for ever once its spin ends.
    std::atomic<bool> finished{false};
    std::thread waiter([&] { finished = work.finished.wait_until(std::chrono::steady_clock::now() + 60s); });
    waiter.join();
    EXPECT_TRUE(finished.load());
    EXPECT_GE(work.calls.load(), 2);
}

TEST(IdlePoller, WorkMarkedFromOutsideWakesASleepingPool) {
    ext::ensure_started();
    delayed_work work;
    work.ready_at = std::chrono::steady_clock::now();  // done at the first call
    registration r{ext::add_idle_poller(&delayed_work::poll, &work, 1s)};
    ASSERT_GE(r.id, 0);
    // Let every worker spin out and sleep without a deadline (nothing is pending yet).
    std::this_thread::sleep_for(20ms);
    ext::idle_poller_pending(r.id);
    EXPECT_TRUE(work.finished.wait_until(std::chrono::steady_clock::now() + 60s));
}

// Pending work whose poller wants 20000 calls, with an interval (10 s) the test never
// reaches: only a worker that keeps polling past its spin budget, instead of sleeping
// until the interval, gets there (one that slept would make 6 calls in the 60 s).
// 200000 calls did not finish in 60 s under TSan beside other CPU-bound processes.
TEST(IdlePoller, AnIdleWorkerPollsWithoutPauseWhileWorkIsPending) {
    struct counted {
        std::atomic<long> calls{0};
        ext::wait_slot finished;
        static bool poll(void* self) noexcept {
            auto& c = *static_cast<counted*>(self);
            if (c.calls.fetch_add(1, std::memory_order_relaxed) + 1 < 20000) return true;
            c.finished.notify();
            return false;
        }
    } c;
    ext::ensure_started();
    registration r{ext::add_idle_poller(&counted::poll, &c, 10s)};
    ASSERT_GE(r.id, 0);
    ext::idle_poller_pending(r.id);
    EXPECT_TRUE(c.finished.wait_until(std::chrono::steady_clock::now() + 60s));
}

TEST(IdlePoller, IsCalledByOneWorkerAtATime) {
    struct probe {
        std::atomic<bool> inside{false};
        std::atomic<bool> overlapped{false};
        std::atomic<long> calls{0};
        static bool poll(void* self) noexcept {
            auto& p = *static_cast<probe*>(self);
            if (p.inside.exchange(true, std::memory_order_acquire)) p.overlapped = true;
            for (int i = 0; i < 200; ++i) std::atomic_signal_fence(std::memory_order_seq_cst);
            p.inside.store(false, std::memory_order_release);
            return p.calls.fetch_add(1, std::memory_order_relaxed) < 2000;
        }
    } p;
    ext::ensure_started();
    registration r{ext::add_idle_poller(&probe::poll, &p, 100us)};
    ASSERT_GE(r.id, 0);
    ext::idle_poller_pending(r.id);
    while (p.calls.load() < 2000) std::this_thread::sleep_for(1ms);
    EXPECT_FALSE(p.overlapped.load());
}

// One worker busy with a chain of tasks that never lets it idle: the chain ends only
// once the poller has run, so the poller must be called between tasks.
TEST(IdlePoller, IsCalledBetweenTasksOfABusyWorker) {
    struct flag {
        std::atomic<bool> polled{false};
        static bool poll(void* self) noexcept {
            static_cast<flag*>(self)->polled = true;
            return false;
        }
    } f;
    ext::ensure_started();
    registration r{ext::add_idle_poller(&flag::poll, &f, 50us)};
    ASSERT_GE(r.id, 0);
    ext::wait_slot done;
    struct chain {
        static void step(flag& f, ext::wait_slot& done) {
            if (f.polled.load()) {
                done.notify();
                return;
            }
            ext::submit(ext::make_task([&f, &done] { step(f, done); }));
        }
    };
    loom_test::run_in_task([&] {
        ext::idle_poller_pending(r.id);
        chain::step(f, done);
    });
    EXPECT_TRUE(done.wait_until(std::chrono::steady_clock::now() + 60s));
}

TEST(IdlePoller, RemoveWaitsForTheCallInProgress) {
    struct blocking {
        std::atomic<bool> entered{false};
        std::atomic<bool> release{false};
        std::atomic<long> calls{0};
        static bool poll(void* self) noexcept {
            auto& b = *static_cast<blocking*>(self);
            b.calls.fetch_add(1);
            b.entered = true;
            while (!b.release.load()) std::this_thread::yield();
            return true;  // still pending: only removal stops the calls
        }
    } b;
    ext::ensure_started();
    const int id = ext::add_idle_poller(&blocking::poll, &b, 100us);
    ASSERT_GE(id, 0);
    ext::idle_poller_pending(id);
    while (!b.entered.load()) std::this_thread::yield();
    std::atomic<bool> removed{false};
    std::thread remover([&] {
        ext::remove_idle_poller(id);
        removed = true;
    });
    std::this_thread::sleep_for(10ms);
    EXPECT_FALSE(removed.load());  // the call has not returned yet
    b.release = true;
    remover.join();
    const long calls = b.calls.load();
    ext::idle_poller_pending(id);  // ignored: removed
    std::this_thread::sleep_for(5ms);
    EXPECT_EQ(b.calls.load(), calls);
}

TEST(IdlePoller, PollNowCallsOnTheCallingThread) {
    struct here {
        std::thread::id caller;
        static bool poll(void* self) noexcept {
            static_cast<here*>(self)->caller = std::this_thread::get_id();
            return false;
        }
    } h;
    registration r{ext::add_idle_poller(&here::poll, &h, 1ms)};
    ASSERT_GE(r.id, 0);
    EXPECT_FALSE(ext::poll_now(r.id));
    EXPECT_EQ(h.caller, std::this_thread::get_id());
}

TEST(IdlePoller, BadIdsAreIgnored) {
    EXPECT_EQ(ext::add_idle_poller(nullptr, nullptr, 1ms), -1);
    ext::idle_poller_pending(-1);
    ext::idle_poller_pending(1000);
    ext::remove_idle_poller(-1);
    EXPECT_FALSE(ext::poll_now(77));
}

}  // namespace
