// when_all / when_any / wait_all.
#include <gtest/gtest.h>

#include <atomic>
#include <list>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "loom/loom.hpp"

namespace {

TEST(WhenAll, VariadicMixedTypes) {
    loom::promise<int> p;
    auto a = loom::async([] { return std::string("a"); });
    auto b = p.get_future();
    auto c = loom::make_ready_future(2.5).share();
    auto all = loom::when_all(a, std::move(b), c);
    static_assert(std::is_same_v<decltype(all), loom::future<std::tuple<loom::future<std::string>, loom::future<int>,
                                                                         loom::shared_future<double>>>>);
    EXPECT_FALSE(a.valid());  // unique futures are moved from, also lvalues
    EXPECT_TRUE(c.valid());   // shared futures are copied
    EXPECT_FALSE(all.is_ready());
    p.set_value(1);
    auto t = all.get();
    EXPECT_TRUE(std::get<0>(t).is_ready());
    EXPECT_TRUE(std::get<1>(t).is_ready());
    EXPECT_EQ(std::get<0>(t).get(), "a");
    EXPECT_EQ(std::get<1>(t).get(), 1);
    EXPECT_EQ(std::get<2>(t).get(), 2.5);
}

TEST(WhenAll, Empty) {
    auto f = loom::when_all();
    EXPECT_TRUE(f.is_ready());
    (void)f.get();
    auto g = loom::when_all(std::vector<loom::future<int>>{});
    EXPECT_TRUE(g.is_ready());
    EXPECT_TRUE(g.get().empty());
}

TEST(WhenAll, AllReadyAlready) {
    auto f = loom::when_all(loom::make_ready_future(1), loom::make_ready_future());
    EXPECT_TRUE(f.is_ready());
    auto [x, y] = f.get();
    EXPECT_EQ(x.get(), 1);
    y.get();
}

TEST(WhenAll, RangeOfAsyncs) {
    std::vector<loom::future<int>> fs;
    for (int i = 0; i < 100; ++i) fs.push_back(loom::async([i] { return i * i; }));
    auto all = loom::when_all(fs);
    EXPECT_TRUE(fs.empty() || !fs[0].valid());
    auto done = all.get();
    ASSERT_EQ(done.size(), 100u);
    for (int i = 0; i < 100; ++i) {
        ASSERT_TRUE(done[i].is_ready());
        EXPECT_EQ(done[i].get(), i * i);
    }
}

TEST(WhenAll, IteratorRangeAndOtherContainers) {
    std::list<loom::shared_future<int>> fs;
    std::vector<loom::promise<int>> ps(10);
    for (auto& p : ps) fs.push_back(p.get_future().share());
    auto all = loom::when_all(fs.begin(), fs.end());
    auto all2 = loom::when_all(fs);
    for (int i = 0; i < 10; ++i) {
        EXPECT_FALSE(all.is_ready());
        ps[i].set_value(i);
    }
    auto v = all.get();
    int sum = 0;
    for (auto& f : v) sum += f.get();
    EXPECT_EQ(sum, 45);
    EXPECT_EQ(all2.get().size(), 10u);
}

TEST(WhenAll, ExceptionStaysInItsFuture) {
    auto a = loom::async([]() -> int { throw std::runtime_error("a"); });
    auto b = loom::async([] { return 2; });
    auto [fa, fb] = loom::when_all(a, b).get();
    EXPECT_TRUE(fa.has_exception());
    EXPECT_THROW(fa.get(), std::runtime_error);
    EXPECT_EQ(fb.get(), 2);
}

TEST(WhenAll, BrokenPromiseCompletes) {
    loom::future<int> f;
    {
        loom::promise<int> p;
        f = p.get_future();
        auto all = loom::when_all(f);
        EXPECT_FALSE(all.is_ready());
        f = std::move(all).then([](auto t) { return std::get<0>(t.get()).get(); });
    }
    EXPECT_THROW(f.get(), loom::future_error);
}

TEST(WhenAll, ThenOnResult) {
    std::vector<loom::future<int>> fs;
    for (int i = 1; i <= 10; ++i) fs.push_back(loom::async([i] { return i; }));
    auto sum = loom::when_all(std::move(fs)).then([](loom::future<std::vector<loom::future<int>>> all) {
        int s = 0;
        for (auto& f : all.get()) s += f.get();
        return s;
    });
    EXPECT_EQ(sum.get(), 55);
}

TEST(WhenAny, FirstReadyWins) {
    loom::promise<int> p0, p1, p2;
    auto any = loom::when_any(p0.get_future(), p1.get_future(), p2.get_future());
    EXPECT_FALSE(any.is_ready());
    p1.set_value(11);
    auto r = any.get();
    EXPECT_EQ(r.index, 1u);
    EXPECT_TRUE(std::get<1>(r.futures).is_ready());
    EXPECT_FALSE(std::get<0>(r.futures).is_ready());
    EXPECT_EQ(std::get<1>(r.futures).get(), 11);
    p0.set_value(0);  // the others may still become ready later
    p2.set_value(2);
    EXPECT_EQ(std::get<0>(r.futures).get(), 0);
}

TEST(WhenAny, LateInputsAfterResultDropped) {
    // The result (and its futures) are gone before the other inputs become ready.
    loom::promise<int> a, b;
    {
        auto any = loom::when_any(a.get_future(), b.get_future());
        a.set_value(1);
        EXPECT_EQ(any.get().index, 0u);
    }
    b.set_value(2);
}

TEST(WhenAny, Range) {
    std::vector<loom::promise<void>> ps(8);
    std::vector<loom::future<void>> fs;
    for (auto& p : ps) fs.push_back(p.get_future());
    auto any = loom::when_any(fs);
    ps[5].set_value();
    auto r = any.get();
    EXPECT_EQ(r.index, 5u);
    ASSERT_EQ(r.futures.size(), 8u);
    EXPECT_TRUE(r.futures[5].is_ready());
    for (std::size_t i = 0; i < ps.size(); ++i) {
        if (i != 5) ps[i].set_value();
    }
}

TEST(WhenAny, AlreadyReadyAndEmpty) {
    loom::promise<int> never;
    auto r = loom::when_any(never.get_future(), loom::make_ready_future(3)).get();
    EXPECT_EQ(r.index, 1u);
    auto e = loom::when_any(std::vector<loom::future<int>>{}).get();
    EXPECT_EQ(e.index, static_cast<std::size_t>(-1));
    never.set_value(0);
}

TEST(WhenAny, IteratorsAndAsyncs) {
    std::vector<loom::shared_future<int>> fs;
    for (int i = 0; i < 20; ++i) fs.push_back(loom::async([i] { return i; }).share());
    auto r = loom::when_any(fs.begin(), fs.end()).get();
    ASSERT_LT(r.index, 20u);
    EXPECT_EQ(r.futures[r.index].get(), static_cast<int>(r.index));
    loom::wait_all(fs);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(fs[i].get(), i);
}

TEST(WaitAll, Variadic) {
    auto a = loom::async([] { return 1; });
    auto b = loom::async([] {});
    loom::wait_all(a, b);
    EXPECT_TRUE(a.is_ready());
    EXPECT_TRUE(b.is_ready());
}

}  // namespace
