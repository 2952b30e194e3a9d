#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "mailbox.hpp"

namespace {

TEST(Mailbox, FifoForOneProducer) {
    loom::core::mailbox box;
    std::vector<loom::ext::task> tasks(10);
    for (auto& t : tasks) box.push(&t);
    for (auto& t : tasks) ASSERT_EQ(box.pop(), &t);
    EXPECT_EQ(box.pop(), nullptr);
    EXPECT_TRUE(box.looks_empty());
}

// Producers race with the consumer; each producer's tasks come out in its order and
// nothing is lost or duplicated.
TEST(Mailbox, ManyProducersOneConsumer) {
    constexpr int producers = 3, per = 30000;
    loom::core::mailbox box;
    std::vector<loom::ext::task> tasks(producers * per);
    std::vector<std::thread> threads;
    for (int p = 0; p < producers; ++p)
        threads.emplace_back([&, p] {
            for (int i = 0; i < per; ++i) {
                auto& t = tasks[static_cast<std::size_t>(p * per + i)];
                t.user = static_cast<std::uint8_t>(p);
                t.home = i;
                box.push(&t);
            }
        });
    std::vector<int> last(producers, -1);
    int received = 0;
    while (received < producers * per) {
        if (loom::ext::task* t = box.pop()) {
            ASSERT_EQ(t->home, last[t->user] + 1);
            last[t->user] = t->home;
            ++received;
        }
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(box.pop(), nullptr);
}

}  // namespace
