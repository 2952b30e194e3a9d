// latch, barrier, mutex, condition_variable, counting_semaphore: in tasks (which
// suspend) and on threads outside the pool (which block).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

// More participants than workers: only works if waiting suspends the task.
unsigned many() { return 4 * loom::num_threads() + 3; }

// ---- latch ----------------------------------------------------------------------

TEST(Latch, CountDownAndWait) {
    loom::latch l(3);
    EXPECT_FALSE(l.try_wait());
    l.count_down();
    l.count_down(2);
    EXPECT_TRUE(l.try_wait());
    l.wait();
    loom::latch zero(0);
    EXPECT_TRUE(zero.try_wait());
    zero.wait();
}

TEST(Latch, TasksWaitForEachOther) {
    const unsigned n = many();
    loom::latch all_arrived(n);
    std::atomic<unsigned> before{0};
    std::atomic<bool> bad{false};
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            ++before;
            all_arrived.arrive_and_wait();
            if (before.load() != n) bad = true;
            done.count_down();
        });
    }
    done.wait();
    EXPECT_FALSE(bad.load());
}

TEST(Latch, OutsideThreadWaitsForTasks) {
    loom::latch l(10);
    std::atomic<int> ran{0};
    std::thread t([&] {
        l.wait();
        EXPECT_EQ(ran.load(), 10);
    });
    for (int i = 0; i < 10; ++i) {
        loom::post([&] {
            ++ran;
            l.count_down();
        });
    }
    l.wait();  // a loom wait: with one worker, this thread runs the tasks meanwhile
    t.join();
}

TEST(Latch, DestroyedRightAfterWait) {
    // The waiter owns the latch and destroys it as soon as wait() returns, while the
    // counting-down task may still be finishing its count_down().
    for (int i = 0; i < 2000; ++i) {
        auto* l = new loom::latch(1);
        loom::post([l] { l->count_down(); });
        l->wait();
        delete l;
    }
}

// ---- barrier ----------------------------------------------------------------------

TEST(Barrier, PhasesWithCompletion) {
    const unsigned n = many();
    constexpr int phases = 20;
    std::atomic<int> completions{0};
    std::vector<int> per_phase(phases, 0);
    std::atomic<int> arrived_this_phase{0};
    std::atomic<bool> bad{false};
    loom::barrier b(static_cast<std::ptrdiff_t>(n), [&]() noexcept {
        // Runs once per phase, after all arrived and before anyone continues.
        if (arrived_this_phase.load() != static_cast<int>(n)) bad = true;
        arrived_this_phase = 0;
        ++completions;
    });
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            for (int ph = 0; ph < phases; ++ph) {
                ++arrived_this_phase;
                b.arrive_and_wait();
                if (completions.load() != ph + 1) bad = true;
            }
            done.count_down();
        });
    }
    done.wait();
    EXPECT_FALSE(bad.load());
    EXPECT_EQ(completions.load(), phases);
}

TEST(Barrier, ArriveThenWaitWithToken) {
    loom::barrier b(2);
    std::atomic<int> arrived{0};
    auto other = loom::async([&] {
        auto tok = b.arrive();
        ++arrived;
        b.wait(std::move(tok));
        return arrived.load();
    });
    b.arrive_and_wait();
    EXPECT_EQ(other.get(), 1);
}

TEST(Barrier, ArriveAndDrop) {
    loom::barrier b(3);
    std::atomic<int> rounds{0};
    loom::latch done(3);
    loom::post([&] {
        b.arrive_and_drop();  // leaves after phase 0
        done.count_down();
    });
    for (int k = 0; k < 2; ++k) {
        loom::post([&] {
            for (int r = 0; r < 5; ++r) {
                b.arrive_and_wait();
                ++rounds;
            }
            done.count_down();
        });
    }
    done.wait();
    EXPECT_EQ(rounds.load(), 10);  // phase 0 with 3 participants, phases 1..4 with 2
}

TEST(Barrier, OutsideThreads) {
    loom::barrier b(3);
    std::atomic<int> sum{0};
    std::vector<std::thread> ts;
    for (int i = 0; i < 2; ++i) {
        ts.emplace_back([&] {
            for (int r = 0; r < 50; ++r) {
                sum += 1;
                b.arrive_and_wait();
            }
        });
    }
    loom::latch done(1);
    loom::post([&] {
        for (int r = 0; r < 50; ++r) {
            sum += 1;
            b.arrive_and_wait();
        }
        done.count_down();
    });
    done.wait();
    for (auto& t : ts) t.join();
    EXPECT_EQ(sum.load(), 150);
}

// ---- mutex ------------------------------------------------------------------------

TEST(Mutex, TryLockAndGuards) {
    loom::mutex m;
    EXPECT_TRUE(m.try_lock());
    EXPECT_FALSE(m.try_lock());
    m.unlock();
    {
        std::lock_guard g(m);
        EXPECT_FALSE(m.try_lock());
    }
    std::unique_lock lk(m);
    EXPECT_TRUE(lk.owns_lock());
    lk.unlock();
    EXPECT_TRUE(m.try_lock());
    m.unlock();
    loom::mutex m2;
    std::scoped_lock both(m, m2);
}

TEST(Mutex, MutualExclusionUnderContention) {
    const unsigned n = many();
    constexpr int iters = 2000 / loom_test::stress_divisor;
    loom::mutex m;
    long counter = 0;  // deliberately not atomic
    int inside = 0;
    std::atomic<bool> overlap{false};
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            for (int k = 0; k < iters; ++k) {
                std::lock_guard g(m);
                if (++inside != 1) overlap = true;
                ++counter;
                if (k % 64 == 0) loom::yield();  // hold it across a scheduling point
                --inside;
            }
            done.count_down();
        });
    }
    done.wait();
    EXPECT_FALSE(overlap.load());
    EXPECT_EQ(counter, static_cast<long>(n) * iters);
}

TEST(Mutex, HeldWhileTaskWaitsOthersSuspend) {
    // The holder waits on a future while holding the lock; the others queue up
    // (suspended); the future's producer must still find a worker.
    loom::mutex m;
    loom::promise<void> go;
    auto gf = go.get_future().share();
    std::atomic<int> acquired{0};
    loom::latch holder_has_it(1);
    auto holder = loom::async([&] {
        std::lock_guard g(m);
        holder_has_it.count_down();
        gf.wait();
        ++acquired;
    });
    holder_has_it.wait();
    const unsigned n = many();
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            {
                std::lock_guard g(m);
                ++acquired;
            }
            done.count_down();  // last: the test's frame may go away right after
        });
    }
    loom::post([&] { go.set_value(); });
    holder.get();
    done.wait();
    EXPECT_EQ(acquired.load(), static_cast<int>(n) + 1);
}

TEST(Mutex, TasksAndThreadsTogether) {
    loom::mutex m;
    long counter = 0;
    constexpr int iters = 5000 / loom_test::stress_divisor;
    std::vector<std::thread> ts;
    for (int t = 0; t < 2; ++t) {
        ts.emplace_back([&] {
            for (int k = 0; k < iters; ++k) {
                std::lock_guard g(m);
                ++counter;
            }
        });
    }
    loom::latch done(4);
    for (int t = 0; t < 4; ++t) {
        loom::post([&] {
            for (int k = 0; k < iters; ++k) {
                std::lock_guard g(m);
                ++counter;
            }
            done.count_down();
        });
    }
    done.wait();
    for (auto& t : ts) t.join();
    EXPECT_EQ(counter, 6L * iters);
}

// ---- condition_variable ---------------------------------------------------------------

TEST(ConditionVariable, ProducerConsumer) {
    loom::mutex m;
    loom::condition_variable cv;
    std::vector<int> queue;
    bool finished = false;
    constexpr int items = 2000;
    const unsigned consumers = many();
    std::atomic<long> consumed_sum{0};
    loom::latch done(consumers);
    for (unsigned c = 0; c < consumers; ++c) {
        loom::post([&] {
            for (;;) {
                std::unique_lock lk(m);
                cv.wait(lk, [&] { return !queue.empty() || finished; });
                if (queue.empty()) break;
                int v = queue.back();
                queue.pop_back();
                lk.unlock();
                consumed_sum += v;
            }
            done.count_down();
        });
    }
    auto producer = loom::async([&] {
        for (int i = 1; i <= items; ++i) {
            {
                std::lock_guard g(m);
                queue.push_back(i);
            }
            cv.notify_one();
        }
        {
            std::lock_guard g(m);
            finished = true;
        }
        cv.notify_all();
    });
    producer.get();
    done.wait();
    EXPECT_EQ(consumed_sum.load(), static_cast<long>(items) * (items + 1) / 2);
}

TEST(ConditionVariable, NotifyAllWakesEveryWaiter) {
    loom::mutex m;
    loom::condition_variable cv;
    bool go = false;
    const unsigned n = many();
    std::atomic<unsigned> waiting{0};
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            {
                std::unique_lock lk(m);
                ++waiting;
                cv.wait(lk, [&] { return go; });
            }
            done.count_down();
        });
    }
    auto setter = loom::async([&] {
        while (waiting.load() != n) loom::yield();
        {
            std::lock_guard g(m);
            go = true;
        }
        cv.notify_all();
    });
    setter.get();
    done.wait();
}

TEST(ConditionVariable, OutsideThreadWaitsForTask) {
    loom::mutex m;
    loom::condition_variable cv;
    int value = 0;
    std::thread t([&] {
        std::unique_lock lk(m);
        cv.wait(lk, [&] { return value != 0; });
        EXPECT_EQ(value, 5);
    });
    loom::async([&] {
        loom_test::spin_for_us(1000);
        std::lock_guard g(m);
        value = 5;
        cv.notify_one();
    }).get();
    t.join();
}

TEST(ConditionVariable, WorksWithStdMutex) {
    std::mutex m;
    loom::condition_variable_any cv;
    bool ready = false;
    auto f = loom::async([&] {
        std::lock_guard g(m);
        ready = true;
        cv.notify_all();
    });
    {
        std::unique_lock lk(m);
        cv.wait(lk, [&] { return ready; });
    }
    f.get();
}

// ---- semaphore ----------------------------------------------------------------------

TEST(Semaphore, TryAcquireAndRelease) {
    loom::counting_semaphore<4> s(2);
    EXPECT_TRUE(s.try_acquire());
    EXPECT_TRUE(s.try_acquire());
    EXPECT_FALSE(s.try_acquire());
    s.release(2);
    EXPECT_TRUE(s.try_acquire());
    s.acquire();
    EXPECT_FALSE(s.try_acquire());
    EXPECT_EQ(loom::counting_semaphore<4>::max(), 4);
}

TEST(Semaphore, LimitsConcurrency) {
    constexpr int limit = 2;
    loom::counting_semaphore<> s(limit);
    std::atomic<int> inside{0};
    std::atomic<int> peak{0};
    const unsigned n = many();
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            for (int k = 0; k < 20; ++k) {
                s.acquire();
                int now = ++inside;
                int p = peak.load();
                while (now > p && !peak.compare_exchange_weak(p, now)) {
                }
                loom::yield();
                --inside;
                s.release();
            }
            done.count_down();
        });
    }
    done.wait();
    EXPECT_LE(peak.load(), limit);
    EXPECT_GE(peak.load(), 1);
    for (int i = 0; i < limit; ++i) EXPECT_TRUE(s.try_acquire());
    EXPECT_FALSE(s.try_acquire());
}

TEST(Semaphore, BinarySignalsAcrossTasksAndThreads) {
    loom::binary_semaphore ping(0), pong(0);
    constexpr int rounds = 200;
    std::thread t([&] {
        for (int i = 0; i < rounds; ++i) {
            ping.acquire();
            pong.release();
        }
    });
    auto f = loom::async([&] {
        for (int i = 0; i < rounds; ++i) {
            ping.release();
            pong.acquire();
        }
    });
    f.get();
    t.join();
    EXPECT_FALSE(ping.try_acquire());
    EXPECT_FALSE(pong.try_acquire());
}

TEST(Semaphore, ReleaseManyWakesMany) {
    loom::counting_semaphore<> s(0);
    const unsigned n = many();
    loom::latch done(n);
    for (unsigned i = 0; i < n; ++i) {
        loom::post([&] {
            s.acquire();
            done.count_down();
        });
    }
    loom::post([&] { s.release(static_cast<std::ptrdiff_t>(n) + 1); });
    done.wait();
    EXPECT_TRUE(s.try_acquire());
    EXPECT_FALSE(s.try_acquire());
}

}  // namespace
