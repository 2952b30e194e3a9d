#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <loom/ext/spin.hpp>

#include "test_support.hpp"

namespace {

using namespace loom;
using loom_test::countdown;
using loom_test::run_in_task;

TEST(Scheduler, RunsAMillionTinyTasks) {
    constexpr long n = 1'000'000;
    std::atomic<long> sum{0};
    countdown left(n);
    for (long i = 0; i < n; ++i)
        ext::submit(ext::make_task([&, i] {
            sum.fetch_add(i, std::memory_order_relaxed);
            left.arrive();
        }));
    left.wait();
    EXPECT_EQ(sum.load(), n * (n - 1) / 2);
}

TEST(Scheduler, TasksSpawnedFromTasksAllRun) {
    constexpr int fan = 64, depth = 3;  // 64^3 leaves
    std::atomic<long> leaves{0};
    countdown left(fan * fan * fan);
    struct spawner {
        static void go(int level, std::atomic<long>& l, countdown& c) {
            if (level == depth) {
                l.fetch_add(1, std::memory_order_relaxed);
                c.arrive();
                return;
            }
            for (int i = 0; i < fan; ++i)
                ext::submit(ext::make_task([level, &l, &c] { go(level + 1, l, c); }));
        }
    };
    spawner::go(0, leaves, left);
    left.wait();
    EXPECT_EQ(leaves.load(), fan * fan * fan);
}

TEST(Scheduler, LargeClosuresSpillToTheHeap) {
    struct big {
        char bytes[1024];
    };
    big b{};
    b.bytes[1023] = 42;
    int seen = 0;
    run_in_task([&] {
        ext::wait_slot inner;
        ext::submit(ext::make_task([b, &seen, &inner] {
            seen = b.bytes[1023];
            inner.notify();
        }));
        inner.wait();
    });
    EXPECT_EQ(seen, 42);
}

TEST(Scheduler, MailboxRunsOnTheNamedWorker) {
    const unsigned workers = ext::worker_count();
    for (unsigned w = 0; w < workers; ++w) {
        std::atomic<int> where{-2};
        ext::wait_slot done;
        ext::task* t = ext::make_task([&] {
            where = ext::current_worker();
            done.notify();
        });
        ext::submit_to(t, w);
        done.wait();
        EXPECT_EQ(where.load(), static_cast<int>(w));
    }
}

// Keeps every worker but the caller's busy until `release` is set, so the caller's
// worker alone sees the tasks a test queues next; each arrives at `finished` when
// released. `occupied` (worker_count() - 1) is the caller's: a countdown must outlive
// its last arrive().
void occupy_other_workers(std::atomic<bool>& release, countdown& occupied, countdown& finished) {
    const unsigned others = ext::worker_count() - 1;
    for (unsigned i = 0; i < others; ++i)
        ext::submit(ext::make_task([&] {
            occupied.arrive();
            while (!release.load()) std::this_thread::yield();
            finished.arrive();
        }));
    occupied.wait();
}

// On one worker, a queued high-priority task runs before normal ones queued earlier,
// and low-priority work runs last. The other workers are kept busy until the low task
// has run, so this worker alone sees the three tasks.
TEST(Scheduler, HighPriorityRunsFirstAndLowLast) {
    std::mutex order_lock;
    std::vector<int> order;
    run_in_task([&] {
        std::atomic<bool> release{false};
        countdown finished(ext::worker_count() - 1 + 3);
        countdown occupied(ext::worker_count() - 1);
        occupy_other_workers(release, occupied, finished);
        auto add = [&](int id, priority p) {
            ext::submit(ext::make_task([&, id] {
                {
                    std::lock_guard guard(order_lock);
                    order.push_back(id);
                }
                if (id == 2) release = true;
                finished.arrive();
            }, p));
        };
        add(2, priority::low);
        add(1, priority::normal);
        add(0, priority::high);
        finished.wait();
    });
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

// High-priority tasks run by level, highest first, first in first out within a level,
// all before normal work. One worker sees them all (the others are kept busy).
TEST(Scheduler, HighPriorityLevelsRunHighestFirst) {
    std::mutex order_lock;
    std::vector<int> order;
    run_in_task([&] {
        std::atomic<bool> release{false};
        countdown finished(ext::worker_count() - 1 + 7);
        countdown occupied(ext::worker_count() - 1);
        occupy_other_workers(release, occupied, finished);
        auto add = [&](int id, priority p, unsigned level) {
            ext::task* t = ext::make_task([&, id] {
                {
                    std::lock_guard guard(order_lock);
                    order.push_back(id);
                }
                if (id == 6) release = true;
                finished.arrive();
            }, p);
            t->level = static_cast<std::uint8_t>(level);
            ext::submit(t);
        };
        add(6, priority::normal, 255);  // the level of normal work means nothing
        add(4, priority::high, 3);
        add(0, priority::high, 200);
        add(3, priority::high, 7);
        add(1, priority::high, 200);
        add(5, priority::high, 0);
        add(2, priority::high, 50);
        finished.wait();
    });
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

// A stream of high-priority tasks (each submits the next) does not keep a worker
// from its own normal work for more than 64 of them (worker::try_get).
TEST(Scheduler, HighPriorityStreamDoesNotStarveNormalWork) {
    constexpr int chain = 300;
    std::atomic<int> high_ran{0}, high_before_normal{-1};
    run_in_task([&] {
        std::atomic<bool> release{false};
        countdown finished(ext::worker_count() - 1 + 2);
        countdown occupied(ext::worker_count() - 1);
        occupy_other_workers(release, occupied, finished);
        ext::submit(ext::make_task([&] {
            high_before_normal = high_ran.load();
            finished.arrive();
        }));
        struct link {
            static void submit(std::atomic<int>& ran, std::atomic<bool>& rel, countdown& done) {
                ext::submit(ext::make_task([&ran, &rel, &done] {
                    if (ran.fetch_add(1) + 1 == chain) {
                        rel = true;
                        done.arrive();
                        return;
                    }
                    submit(ran, rel, done);
                }, priority::high));
            }
        };
        link::submit(high_ran, release, finished);
        finished.wait();
    });
    EXPECT_EQ(high_ran.load(), chain);
    EXPECT_GE(high_before_normal.load(), 1);   // high work did go first
    EXPECT_LE(high_before_normal.load(), 64);  // but not for ever
}

// Steal-half: 64 ready tasks queued on one worker's deque (the other workers busy
// meanwhile, the owner spinning without taking any) reach the thieves in fewer visits
// than tasks. With one steal per visit, visits == tasks.
TEST(Scheduler, ThievesTakeHalfOfADequeInOneVisit) {
    if (ext::worker_count() < 2) GTEST_SKIP() << "needs a thief";
    constexpr int row = 64;
    auto sum = [](auto member) {
        std::uint64_t n = 0;
        for (const ext::worker_stats& s : ext::stats()) n += s.*member;
        return n;
    };
    std::uint64_t visits = 0, taken = 0;
    run_in_task([&] {
        std::atomic<bool> release{false};
        countdown finished(ext::worker_count() - 1);
        countdown occupied(ext::worker_count() - 1);
        occupy_other_workers(release, occupied, finished);
        const std::uint64_t visits_before = sum(&ext::worker_stats::steals);
        const std::uint64_t taken_before = sum(&ext::worker_stats::tasks_stolen);
        std::atomic<int> ran{0};
        for (int i = 0; i < row; ++i)
            ext::submit(ext::make_task([&] { ran.fetch_add(1, std::memory_order_relaxed); }));
        release = true;
        // Spin, not wait: a waiting task would run its own deque's tasks inline.
        while (ran.load() < row) std::this_thread::yield();
        finished.wait();
        visits = sum(&ext::worker_stats::steals) - visits_before;
        taken = sum(&ext::worker_stats::tasks_stolen) - taken_before;
    });
    EXPECT_GE(taken, static_cast<std::uint64_t>(row));  // the owner ran none of them
    EXPECT_LE(visits * 2, taken) << visits << " visits took " << taken << " tasks";
}

// Sums one counter over the workers.
std::uint64_t total(std::uint64_t ext::worker_stats::*member) {
    std::uint64_t n = 0;
    for (const ext::worker_stats& s : ext::stats()) n += s.*member;
    return n;
}

// Runs `send(task)` from inside a task whose worker then keeps its CPU in a loop that
// never takes work, so every task sent is run by another worker, usually found spinning
// since it ran the previous one. A worker preempted past its spin budget sleeps and is
// woken instead (a loaded machine), so the rounds go on until `member` counted one,
// with a bound only against a hang.
template <class Send>
std::uint64_t count_while_sending(std::uint64_t ext::worker_stats::*member, Send send) {
    constexpr int max_rounds = 50000;
    ext::ensure_started();
    const std::uint64_t before = total(member);
    run_in_task([&] {
        for (int i = 0; i < max_rounds && total(member) == before; ++i) {
            std::atomic<bool> ran{false};
            send(ext::make_task([&] { ran.store(true, std::memory_order_release); }));
            while (!ran.load(std::memory_order_acquire)) ext::cpu_relax();
            // Pacing, not timing: the runner should be back in its spin before the
            // next task, not still on its way there (where its first look finds it).
            for (int k = 0; k < 100; ++k) ext::cpu_relax();
        }
    });
    return total(member) - before;
}

// A task submitted onto an empty deque while another worker spins idle is handed to
// that worker through its doorbell word, never entering a deque.
TEST(Scheduler, SubmitOntoAnEmptyDequeHandsTheTaskToASpinningWorker) {
    if (ext::worker_count() < 2) GTEST_SKIP() << "needs a second worker";
    EXPECT_GE(count_while_sending(&ext::worker_stats::handoffs, [](ext::task* t) { ext::submit(t); }), 1u);
}

// Mail for a spinning worker rings its doorbell, so it rescans at once rather than at
// the end of its pause (and no futex wake-up is made).
TEST(Scheduler, MailForASpinningWorkerRingsItsDoorbell) {
    if (ext::worker_count() < 2) GTEST_SKIP() << "needs a second worker";
    EXPECT_GE(count_while_sending(&ext::worker_stats::rings,
                                  [](ext::task* t) {
                                      const int me = ext::current_worker();
                                      ext::submit_to(t, me == 0 ? 1u : 0u);
                                  }),
              1u);
}

TEST(Scheduler, ForeignThreadsSubmitAndWaitConcurrently) {
    constexpr int threads = 6, per = 20000;
    std::atomic<long> ran{0};
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k)
        pool.emplace_back([&] {
            countdown left(per);
            for (int i = 0; i < per; ++i)
                ext::submit(ext::make_task([&] {
                    ran.fetch_add(1, std::memory_order_relaxed);
                    left.arrive();
                }));
            left.wait();
            EXPECT_EQ(ext::current_worker(), -1);
        });
    for (auto& t : pool) t.join();
    EXPECT_EQ(ran.load(), threads * per);
}

TEST(Scheduler, PopLocalAndRunIfOnTop) {
    run_in_task([] {
        // Atomic: t or `other` may be stolen and run on another worker while this
        // task reads the count.
        std::atomic<int> ran{0};
        ext::task* t = ext::make_task([&] { ++ran; });
        ext::submit(t);
        // Nothing else was pushed by this task since, so t is on top unless stolen.
        if (ext::run_if_on_top(t)) {
            EXPECT_EQ(ran.load(), 1);
        }
        ext::task* other = ext::make_task([&] { ++ran; });
        ext::submit(other);
        if (ext::task* top = ext::pop_local()) {
            EXPECT_EQ(top, other);
            ext::push_local(top);
        }
        ext::yield();  // lets t/other run if they were stolen or pushed back
        while (ran < 2) ext::yield();
    });
}

TEST(Scheduler, StatsCountTasksAndWorkers) {
    EXPECT_TRUE(ext::stats().empty() || ext::running());
    ext::ensure_started();
    auto before = ext::stats();
    ASSERT_EQ(before.size(), ext::worker_count());
    countdown left(1000);
    for (int i = 0; i < 1000; ++i) ext::submit(ext::make_task([&] { left.arrive(); }));
    left.wait();
    // The last task notifies before its worker counts it: give the count a moment.
    auto total_run = [] {
        std::uint64_t n = 0;
        for (auto& s : ext::stats()) n += s.tasks_run;
        return n;
    };
    std::uint64_t run_before = 0;
    for (auto& s : before) run_before += s.tasks_run;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (total_run() - run_before < 1000u && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    EXPECT_GE(total_run() - run_before, 1000u);
}

// With binding asked for (LOOM_PIN=true, set for this binary's own entries); unbound
// workers have no place.
TEST(Scheduler, WorkersHaveDistinctPlacesWhenThereIsRoom) {
    const unsigned workers = ext::worker_count();
    if (ext::worker_place(0).empty()) GTEST_SKIP() << "workers are not bound (LOOM_PIN is not true)";
    std::set<std::vector<unsigned>> places;
    for (unsigned w = 0; w < workers; ++w) places.insert(ext::worker_place(w));
    if (workers <= std::thread::hardware_concurrency()) {
        EXPECT_EQ(places.size(), workers);
    }
}

}  // namespace

namespace {

// A task sent to a worker's mailbox stays on that worker even when it parks.
TEST(Scheduler, MailboxTaskResumesOnItsWorkerAfterParking) {
    const unsigned workers = loom::ext::worker_count();
    for (unsigned w = 0; w < workers; ++w) {
        loom::ext::wait_slot go, done;
        std::atomic<int> before{-2}, after{-2};
        loom::ext::submit_to(loom::ext::make_task([&] {
            before = loom::ext::current_worker();
            go.wait();
            after = loom::ext::current_worker();
            done.notify();
        }), w);
        std::thread notifier([&] { go.notify(); });
        done.wait();
        notifier.join();
        EXPECT_EQ(before.load(), static_cast<int>(w));
        EXPECT_EQ(after.load(), static_cast<int>(w));
    }
}

}  // namespace
