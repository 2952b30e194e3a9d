#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace loom;
using loom_test::countdown;
using loom_test::run_in_task;

TEST(WaitSlot, NotifyBeforeWaitReturnsAtOnce) {
    ext::wait_slot s;
    s.notify();
    EXPECT_TRUE(s.notified());
    s.wait();
    s.reset();
    EXPECT_FALSE(s.notified());
}

TEST(WaitSlot, ThreadOutsideThePoolBlocksUntilNotified) {
    ext::wait_slot s;
    std::atomic<bool> woke{false};
    std::thread waiter([&] {
        s.wait();
        woke = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(woke.load());
    s.notify();
    waiter.join();
    EXPECT_TRUE(woke.load());
}

// A task waits for a task queued behind it on the same worker: the waiter must park
// so that its worker can run the producer (no deadlock even with one worker).
TEST(WaitSlot, WaiterParksSoTheTaskBehindItCanRun) {
    run_in_task([] {
        ext::wait_slot produced;
        int value = 0;
        ext::submit(ext::make_task([&] {
            value = 7;
            produced.notify();
        }));
        produced.wait();
        EXPECT_EQ(value, 7);
    });
}

TEST(WaitSlot, ThousandSlotsParkedThenNotifiedFromAnotherThread) {
    constexpr int n = 1000;
    std::vector<std::unique_ptr<ext::wait_slot>> slots;
    for (int i = 0; i < n; ++i) slots.push_back(std::make_unique<ext::wait_slot>());
    countdown started(n), done(n);
    for (int i = 0; i < n; ++i)
        ext::submit(ext::make_task([&, i] {
            started.arrive();
            slots[static_cast<std::size_t>(i)]->wait();
            done.arrive();
        }));
    started.wait();
    std::thread notifier([&] {
        for (auto& s : slots) s->notify();
    });
    done.wait();
    notifier.join();
    auto st = ext::stats();
    std::uint64_t suspensions = 0;
    for (auto& s : st) suspensions += s.suspensions;
    EXPECT_GT(suspensions, 0u);
}

TEST(WaitSlot, PingPongBetweenTasks) {
    constexpr int rounds = 20000;
    struct pingpong {
        ext::wait_slot ping, pong;
    };
    std::vector<pingpong> slots(rounds);
    ext::wait_slot finished;
    ext::submit(ext::make_task([&] {
        for (auto& p : slots) {
            p.ping.wait();
            p.pong.notify();
        }
        finished.notify();
    }));
    run_in_task([&] {
        for (auto& p : slots) {
            p.ping.notify();
            p.pong.wait();
        }
    });
    finished.wait();
}

}  // namespace
