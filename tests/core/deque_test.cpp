#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "chase_lev_deque.hpp"
#include "injection_queue.hpp"

namespace {

using loom::core::chase_lev_deque;

TEST(ChaseLevDeque, OwnerPopsLifoThiefStealsFifo) {
    chase_lev_deque<int*> d(4);
    int items[3];
    for (int& i : items) d.push(&i);
    EXPECT_EQ(d.steal(), &items[0]);
    EXPECT_EQ(d.pop(), &items[2]);
    EXPECT_EQ(d.pop(), &items[1]);
    EXPECT_EQ(d.pop(), nullptr);
    EXPECT_EQ(d.steal(), nullptr);
    EXPECT_TRUE(d.looks_empty());
}

TEST(ChaseLevDeque, GrowsPastInitialCapacityKeepingOrder) {
    chase_lev_deque<std::intptr_t*> d(2);
    std::vector<std::intptr_t> values(1000);
    for (auto& v : values) d.push(&v);
    for (std::size_t i = values.size(); i-- > 0;) ASSERT_EQ(d.pop(), &values[i]);
    EXPECT_EQ(d.pop(), nullptr);
}

// Every pushed item is taken exactly once, whether by the owner or by a thief, while
// the owner interleaves pushes and pops and the buffer grows under the thieves.
TEST(ChaseLevDeque, ConcurrentStealsTakeEachItemExactlyOnce) {
    constexpr int n = 200000;
    chase_lev_deque<int*> d(8);
    std::vector<int> items(n);
    std::vector<std::atomic<int>> taken(n);
    std::atomic<bool> done{false};
    auto record = [&](int* p) { taken[static_cast<std::size_t>(p - items.data())].fetch_add(1); };
    std::vector<std::thread> thieves;
    for (int k = 0; k < 2; ++k)
        thieves.emplace_back([&] {
            while (!done.load()) {
                if (int* p = d.steal()) record(p);
            }
            while (int* p = d.steal()) record(p);
        });
    for (int i = 0; i < n; ++i) {
        d.push(&items[static_cast<std::size_t>(i)]);
        if (i % 3 == 0)
            if (int* p = d.pop()) record(p);
    }
    while (int* p = d.pop()) record(p);
    done.store(true);
    for (auto& t : thieves) t.join();
    for (int i = 0; i < n; ++i) ASSERT_EQ(taken[static_cast<std::size_t>(i)].load(), 1) << "item " << i;
}

TEST(InjectionQueue, FifoAcrossThreads) {
    loom::core::injection_queue q;
    constexpr int per_thread = 20000;
    std::vector<loom::ext::task> tasks(2 * per_thread);
    std::thread a([&] { for (int i = 0; i < per_thread; ++i) { tasks[i].user = 0; tasks[i].home = i; q.push(&tasks[i]); } });
    std::thread b([&] { for (int i = 0; i < per_thread; ++i) { auto& t = tasks[per_thread + i]; t.user = 1; t.home = i; q.push(&t); } });
    a.join();
    b.join();
    int last[2] = {-1, -1};
    int count = 0;
    while (loom::ext::task* t = q.pop()) {
        ASSERT_GT(t->home, last[t->user]);
        last[t->user] = t->home;
        ++count;
    }
    EXPECT_EQ(count, 2 * per_thread);
    EXPECT_TRUE(q.looks_empty());
}

}  // namespace
