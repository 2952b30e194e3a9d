// Senders: the value, error and stopped channels through every adaptor (what each one
// turns into what), the pipe, completion signatures, move-only values.
#include <gtest/gtest.h>

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/sender.hpp"
#include "sender_support.hpp"

namespace {

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;
using loom_test::outcome;
using loom_test::test_error;

// ---- factories and concepts ----------------------------------------------------------

TEST(SenderBasics, FactoriesSendTheirChannel) {
    EXPECT_EQ(outcome(ex::just(7)), "value:7");
    EXPECT_EQ(outcome(ex::just()), "value");
    EXPECT_EQ(outcome(ex::just_error(test_error("boom"))), "error:boom");
    EXPECT_EQ(outcome(ex::just_error(42)), "error:int:42");  // a non-exception error is thrown as itself
    EXPECT_EQ(outcome(ex::just_stopped()), "stopped");
}

TEST(SenderBasics, ConceptsAndSignatures) {
    using S = decltype(ex::just(1, 2.0));
    static_assert(ex::is_sender_v<S>);
    static_assert(ex::sender_in<S>);
    static_assert(!ex::is_sender_v<int>);
    static_assert(!ex::is_sender_v<loom::future<int>>);
    static_assert(ex::scheduler<ex::pool_scheduler>);
    static_assert(std::is_same_v<ex::value_types_of_t<S>, std::variant<std::tuple<int, double>>>);
    static_assert(!ex::sends_stopped<S>);
    static_assert(ex::sends_stopped<decltype(ex::just_stopped())>);
    using T = decltype(ex::just(1) | ex::then([](int) { return 1.5; }));
    static_assert(std::is_same_v<ex::value_types_of_t<T>, std::variant<std::tuple<double>>>);
    // A throwing function adds an error of exception_ptr; a noexcept one does not.
    static_assert(std::is_same_v<ex::error_types_of_t<T>, std::variant<std::exception_ptr>>);
    using U = decltype(ex::just(1) | ex::then([](int) noexcept { return 1; }));
    static_assert(std::is_same_v<ex::error_types_of_t<U>, ex::variant_or_empty<>>);
    auto sigs = ex::get_completion_signatures(ex::just_stopped(), ex::env<>{});
    static_assert(std::is_same_v<decltype(sigs), ex::completion_signatures<ex::set_stopped_t()>>);
}

TEST(SenderBasics, PipeAndCallFormsAgree) {
    auto inc = [](int v) { return v + 1; };
    EXPECT_EQ(outcome(ex::then(ex::just(1), inc)), "value:2");
    EXPECT_EQ(outcome(ex::just(1) | ex::then(inc)), "value:2");
    auto twice = ex::then(inc) | ex::then(inc);  // closures compose
    EXPECT_EQ(outcome(ex::just(1) | twice), "value:3");
    EXPECT_EQ(outcome(ex::just(1) | twice), "value:3");  // a closure is reusable
}

TEST(SenderBasics, SenderIsReusableWhenCopyable) {
    auto s = ex::just(5) | ex::then([](int v) { return v * 2; });
    EXPECT_EQ(outcome(s), "value:10");
    EXPECT_EQ(outcome(s), "value:10");
}

// ---- then / upon_error / upon_stopped --------------------------------------------------

TEST(SenderThen, Channels) {
    auto f = [](int v) { return v + 1; };
    EXPECT_EQ(outcome(ex::just(1) | ex::then(f)), "value:2");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::then(f)), "error:e");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::then([] { return 1; })), "stopped");
    EXPECT_EQ(outcome(ex::just(1) | ex::then([](int) -> int { throw std::runtime_error("thrown"); })),
              "error:thrown");
    EXPECT_EQ(outcome(ex::just(1, 2) | ex::then([](int a, int b) { return a * 10 + b; })), "value:12");
    EXPECT_EQ(outcome(ex::just(1) | ex::then([](int) {})), "value");
}

TEST(SenderThen, UponErrorAndUponStopped) {
    auto recover = [](std::exception_ptr) { return 9; };
    EXPECT_EQ(outcome(ex::just(1) | ex::upon_error(recover)), "value:1");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::upon_error(recover)), "value:9");
    EXPECT_EQ(outcome(ex::just_error(5) | ex::upon_error([](int e) { return e * 2; })), "value:10");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::upon_error([](int) { return 0; })), "stopped");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::upon_error([](std::exception_ptr) -> int {
                          throw std::runtime_error("again");
                      })),
              "error:again");

    EXPECT_EQ(outcome(ex::just_stopped() | ex::upon_stopped([] { return 3; })), "value:3");
    EXPECT_EQ(outcome(ex::just(1) | ex::upon_stopped([] { return 3; })), "value:1");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::upon_stopped([] { return 3; })), "error:e");
}

// ---- let_value / let_error / let_stopped ----------------------------------------------------

TEST(SenderLet, ValueChannel) {
    EXPECT_EQ(outcome(ex::just(2) | ex::let_value([](int& v) { return ex::just(v * 21); })), "value:42");
    EXPECT_EQ(outcome(ex::just(2) | ex::let_value([](int&) { return ex::just_error(test_error("inner")); })),
              "error:inner");
    EXPECT_EQ(outcome(ex::just(2) | ex::let_value([](int&) { return ex::just_stopped(); })), "stopped");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::let_value([](int& v) { return ex::just(v); })),
              "error:e");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::let_value([] { return ex::just(1); })), "stopped");
    EXPECT_EQ(outcome(ex::just(1) | ex::let_value([](int&) -> decltype(ex::just(0)) {
                          throw std::runtime_error("in f");
                      })),
              "error:in f");
}

TEST(SenderLet, ArgumentsLiveAsLongAsTheNewSender) {
    // The new sender refers to the kept argument by reference, across a hop to the pool.
    ex::pool_scheduler sch;
    auto s = ex::just(std::string("kept")) | ex::let_value([sch](std::string& str) {
                 return ex::schedule(sch) | ex::then([&str] { return static_cast<int>(str.size()); });
             });
    EXPECT_EQ(outcome(std::move(s)), "value:4");
}

TEST(SenderLet, ErrorAndStoppedChannels) {
    EXPECT_EQ(outcome(ex::just_error(3) | ex::let_error([](int& e) { return ex::just(e + 1); })), "value:4");
    EXPECT_EQ(outcome(ex::just(3) | ex::let_error([](int&) { return ex::just(0); })), "value:3");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::let_stopped([] { return ex::just(8); })), "value:8");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::let_stopped([] { return ex::just_error(test_error("s")); })),
              "error:s");
    EXPECT_EQ(outcome(ex::just(3) | ex::let_stopped([] { return ex::just(0); })), "value:3");
}

TEST(SenderLet, SeveralValueSignaturesEachGetTheirSender) {
    // Senders that may send an int or a double: each kind of value gets its own sender
    // from f, and the operation holds whichever was made.
    auto doubled = [](auto& v) { return ex::just(v * 2); };
    auto as_int = tt::sync_wait_with_variant(ex::just(2) | ex::upon_stopped([] { return 2.5; }) |
                                             ex::let_value(doubled));
    ASSERT_TRUE(as_int.has_value());
    EXPECT_EQ(std::get<std::tuple<int>>(std::get<0>(*as_int)), std::make_tuple(4));
    auto as_double = tt::sync_wait_with_variant(ex::any_sender<int>(ex::just_stopped()) |
                                                ex::upon_stopped([] { return 2.5; }) | ex::let_value(doubled));
    ASSERT_TRUE(as_double.has_value());
    EXPECT_EQ(std::get<std::tuple<double>>(std::get<0>(*as_double)), std::make_tuple(5.0));
}

// ---- bulk -----------------------------------------------------------------------------------

TEST(SenderBulk, Channels) {
    auto noop = [](int, int) {};
    EXPECT_EQ(outcome(ex::just(4) | ex::bulk(10, noop)), "value:4");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::bulk(10, noop)), "error:e");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::bulk(10, [](int) {})), "stopped");
    EXPECT_EQ(outcome(ex::just(4) | ex::bulk(10, [](int i, int) {
                          if (i == 7) throw std::runtime_error("bulk 7");
                      })),
              "error:bulk 7");
    EXPECT_EQ(outcome(ex::just(4) | ex::bulk(loom::execution::seq, 10,
                                             [](int i, int) {
                                                 if (i == 3) throw std::runtime_error("seq 3");
                                             })),
              "error:seq 3");
    EXPECT_EQ(outcome(ex::just(4) | ex::bulk(0, noop)), "value:4");
}

// ---- continues_on / starts_on ---------------------------------------------------------------

TEST(SenderTransfer, ChannelsPassThrough) {
    ex::pool_scheduler sch;
    EXPECT_EQ(outcome(ex::just(1) | ex::continues_on(sch)), "value:1");
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::continues_on(sch)), "error:e");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::continues_on(sch)), "stopped");
    EXPECT_EQ(outcome(ex::just(1) | ex::transfer(sch)), "value:1");

    EXPECT_EQ(outcome(ex::starts_on(sch, ex::just(2))), "value:2");
    EXPECT_EQ(outcome(ex::starts_on(sch, ex::just_error(test_error()))), "error:e");
    EXPECT_EQ(outcome(ex::starts_on(sch, ex::just_stopped())), "stopped");
}

TEST(SenderTransfer, CompletionSchedulerIsNamed) {
    ex::pool_scheduler high(loom::priority::high);
    auto s = ex::just(1) | ex::continues_on(high);
    EXPECT_EQ(ex::get_completion_scheduler<ex::set_value_t>(ex::get_env(s)), high);
    EXPECT_EQ(ex::get_completion_scheduler<ex::set_value_t>(ex::get_env(ex::schedule(high))).priority(),
              loom::priority::high);
}

// ---- split / ensure_started -------------------------------------------------------------------

TEST(SenderShared, SplitChannels) {
    auto v = ex::split(ex::just(6));
    EXPECT_EQ(outcome(v), "value:6");
    EXPECT_EQ(outcome(v | ex::then([](const int& x) { return x + 1; })), "value:7");
    auto e = ex::split(ex::just_error(test_error()));
    EXPECT_EQ(outcome(e), "error:e");
    EXPECT_EQ(outcome(e), "error:e");
    auto s = ex::split(ex::just_stopped());
    EXPECT_EQ(outcome(s), "stopped");
}

TEST(SenderShared, EnsureStartedChannels) {
    EXPECT_EQ(outcome(ex::ensure_started(ex::just(6))), "value:6");
    EXPECT_EQ(outcome(ex::ensure_started(ex::just_error(test_error()))), "error:e");
    EXPECT_EQ(outcome(ex::ensure_started(ex::just_stopped())), "stopped");
}

// ---- into_variant / stopped_as_optional / stopped_as_error -------------------------------------

TEST(SenderVariant, IntoVariant) {
    auto r = tt::sync_wait(ex::just(1, 2.5) | ex::into_variant());
    ASSERT_TRUE(r.has_value());
    auto& var = std::get<0>(*r);
    EXPECT_EQ(std::get<0>(var), std::make_tuple(1, 2.5));
    EXPECT_EQ(outcome(ex::just_error(test_error()) | ex::into_variant() | ex::then([](auto) { return 0; })),
              "error:e");
    EXPECT_EQ(outcome(ex::just_stopped() | ex::into_variant() | ex::then([](auto) { return 0; })), "stopped");
    auto w = tt::sync_wait_with_variant(ex::just(3));
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(std::get<0>(std::get<0>(*w)), std::make_tuple(3));
}

TEST(SenderVariant, StoppedAsOptionalAndAsError) {
    auto a = tt::sync_wait(ex::just(4) | ex::stopped_as_optional());
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(std::get<0>(*a), std::optional<int>(4));
    auto b = tt::sync_wait(ex::any_sender<int>(ex::just_stopped()) | ex::stopped_as_optional());
    ASSERT_TRUE(b.has_value());
    EXPECT_FALSE(std::get<0>(*b).has_value());
    EXPECT_EQ(outcome(ex::any_sender<int>(ex::just_error(test_error())) | ex::stopped_as_optional() |
                      ex::then([](std::optional<int> o) { return o.value_or(-1); })),
              "error:e");

    EXPECT_EQ(outcome(ex::just_stopped() | ex::stopped_as_error(17)), "error:int:17");
    EXPECT_EQ(outcome(ex::just(2) | ex::stopped_as_error(17)), "value:2");
}

// ---- when_all ---------------------------------------------------------------------------------

TEST(SenderWhenAll, ValuesInOrder) {
    auto r = tt::sync_wait(ex::when_all(ex::just(1), ex::just(), ex::just(2.5, 'c')));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, std::make_tuple(1, 2.5, 'c'));
    EXPECT_EQ(outcome(ex::when_all()), "value");
}

TEST(SenderWhenAll, ErrorWinsOverStoppedAndValues) {
    EXPECT_EQ(outcome(ex::when_all(ex::just(1), ex::just_error(test_error("first")))), "error:first");
    EXPECT_EQ(outcome(ex::when_all(ex::just_stopped(), ex::just_error(test_error("err")))), "error:err");
    EXPECT_EQ(outcome(ex::when_all(ex::just(1), ex::just_stopped())), "stopped");
    EXPECT_EQ(outcome(ex::when_all(ex::just_stopped(), ex::just_stopped())), "stopped");
}

// ---- move-only values --------------------------------------------------------------------------

TEST(SenderMoveOnly, ThroughTheAdaptors) {
    ex::pool_scheduler sch;
    auto s = ex::just(std::make_unique<int>(5)) | ex::then([](std::unique_ptr<int> p) {
                 *p += 1;
                 return p;
             }) |
             ex::continues_on(sch) | ex::let_value([](std::unique_ptr<int>& p) { return ex::just(std::move(p)); }) |
             ex::bulk(4, [](int, std::unique_ptr<int>& p) { (void)*p; });
    auto r = tt::sync_wait(std::move(s));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*std::get<0>(*r), 6);

    auto w = tt::sync_wait(ex::when_all(ex::just(std::make_unique<int>(1)), ex::just(std::make_unique<int>(2))));
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(*std::get<0>(*w) + *std::get<1>(*w), 3);

    auto e = tt::sync_wait(ex::ensure_started(ex::schedule(sch) | ex::then([] { return std::make_unique<int>(9); })));
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(*std::get<0>(*e), 9);

    auto o = tt::sync_wait(ex::just(std::make_unique<int>(3)) | ex::stopped_as_optional());
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(**std::get<0>(*o), 3);
}

}  // namespace
