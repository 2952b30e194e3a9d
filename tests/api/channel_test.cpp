// loom::channel.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "loom/loom.hpp"

namespace {

TEST(Channel, UnboundedFifo) {
    loom::channel<int> ch;
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(ch.send(i));
    EXPECT_EQ(ch.size(), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(ch.receive(), i);
    EXPECT_EQ(ch.try_receive(), std::nullopt);
}

TEST(Channel, CloseDrainsThenEnds) {
    loom::channel<std::string> ch;
    ch.send("a");
    ch.close();
    EXPECT_TRUE(ch.is_closed());
    EXPECT_FALSE(ch.send("b"));
    EXPECT_EQ(ch.receive(), "a");
    EXPECT_EQ(ch.receive(), std::nullopt);
}

TEST(Channel, BoundedBlocksSender) {
    loom::channel<int> ch(2);
    EXPECT_TRUE(ch.try_send(1));
    EXPECT_TRUE(ch.try_send(2));
    EXPECT_FALSE(ch.try_send(3));
    std::atomic<bool> sent{false};
    auto sender = loom::async([&] {
        ch.send(3);  // waits for room
        sent = true;
    });
    EXPECT_EQ(ch.receive(), 1);
    sender.get();
    EXPECT_TRUE(sent.load());
    EXPECT_EQ(ch.receive(), 2);
    EXPECT_EQ(ch.receive(), 3);
}

TEST(Channel, PipelineOfTasks) {
    constexpr int n = 1000;
    loom::channel<int> stage1(8), stage2(8);
    auto producer = loom::async([&] {
        for (int i = 1; i <= n; ++i) stage1.send(i);
        stage1.close();
    });
    auto mapper = loom::async([&] {
        while (auto v = stage1.receive()) stage2.send(*v * 2);
        stage2.close();
    });
    auto consumer = loom::async([&] {
        long sum = 0;
        while (auto v = stage2.receive()) sum += *v;
        return sum;
    });
    EXPECT_EQ(consumer.get(), static_cast<long>(n) * (n + 1));
    producer.get();
    mapper.get();
}

TEST(Channel, CloseWakesWaitingReceivers) {
    loom::channel<int> ch;
    std::vector<loom::future<bool>> rs;
    for (int i = 0; i < 8; ++i) rs.push_back(loom::async([&] { return ch.receive().has_value(); }));
    loom::async([&] { ch.close(); }).get();
    for (auto& r : rs) EXPECT_FALSE(r.get());
}

}  // namespace
