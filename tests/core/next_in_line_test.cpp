// Next in line: the first task a task's final release (ext::begin_final_release) makes
// runnable runs on the same worker right after it, and is never left where no worker
// can take it while that worker does something else.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include <loom/ext/scheduler.hpp>
#include <loom/ext/spin.hpp>

#include "test_support.hpp"

namespace {

using namespace loom;
using loom_test::countdown;
using loom_test::run_in_task;

// Spins (without running any work here) until `flag` is set or 10 s have passed.
bool spin_until_set(const std::atomic<bool>& flag) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!flag.load(std::memory_order_acquire)) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        ext::cpu_relax();
    }
    return true;
}

TEST(NextInLine, OpensOnlyInsideATaskAndOnlyOnce) {
    ext::ensure_started();
    void* outside = ext::begin_final_release();
    EXPECT_EQ(outside, nullptr) << "the test's own thread runs no task";
    if (outside != nullptr) ext::end_final_release(outside);
    run_in_task([] {
        void* opened = ext::begin_final_release();
        EXPECT_NE(opened, nullptr);
        EXPECT_EQ(ext::begin_final_release(), nullptr) << "a final release is open already";
        ext::end_final_release(opened);
        void* again = ext::begin_final_release();
        EXPECT_NE(again, nullptr) << "closed, it opens again";
        if (again != nullptr) ext::end_final_release(again);
    });
}

// The other worker spins idle between the rounds, so without the final release the
// first task would be handed to it (SubmitOntoAnEmptyDequeHandsTheTaskToASpinningWorker).
TEST(NextInLine, TheFirstTaskReleasedRunsNextOnTheReleasingWorker) {
    constexpr int rounds = 200;
    int elsewhere = 0;
    for (int r = 0; r < rounds; ++r) {
        std::atomic<int> releaser{-2}, first{-3};
        countdown done(2);
        ext::submit(ext::make_task([&] {
            releaser.store(ext::current_worker(), std::memory_order_relaxed);
            ext::final_release last;
            ext::submit(ext::make_task([&] {
                first.store(ext::current_worker(), std::memory_order_relaxed);
                done.arrive();
            }));
            ext::submit(ext::make_task([&] { done.arrive(); }));  // queued as usual
        }));
        done.wait();
        if (first.load() != releaser.load()) ++elsewhere;
    }
    EXPECT_EQ(elsewhere, 0) << "of " << rounds << " rounds";
}

// A task run inline (run_if_on_top) ends inside its caller, which goes on: what its
// final release kept must be queued, or nobody runs it before the caller ends. Here the
// caller does not end until it has run.
TEST(NextInLine, WhatAnInlineTaskKeptIsQueued) {
    run_in_task([] {
        std::atomic<bool> released_ran{false};
        ext::task* inner = ext::make_task([&] {
            ext::final_release last;
            ext::submit(ext::make_task([&] { released_ran.store(true, std::memory_order_release); }));
        });
        ext::push_local(inner);
        if (!ext::run_if_on_top(inner)) {
            // Stolen first: it ran elsewhere and kept its release there.
            EXPECT_TRUE(spin_until_set(released_ran));
            return;
        }
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!released_ran.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < give_up) {
            if (ext::task* t = ext::pop_local()) t->run(t);  // queued here: run it (1 worker)
            ext::cpu_relax();
        }
        EXPECT_TRUE(released_ran.load()) << "the kept task waited for the end of the task that ran it inline";
    });
}

// Mailbox work goes first, but the kept task is queued then: here the mailbox task
// spins until the kept one has run, which only another worker can do.
TEST(NextInLine, AKeptTaskDoesNotWaitBehindMailboxWork) {
    if (ext::worker_count() < 2) GTEST_SKIP() << "needs a worker to take the kept task";
    std::atomic<bool> kept_ran{false}, mailbox_saw_it{false};
    countdown done(1);
    ext::submit(ext::make_task([&] {
        ext::final_release last;
        ext::submit(ext::make_task([&] { kept_ran.store(true, std::memory_order_release); }));
        ext::submit_to(ext::make_task([&] {
                           mailbox_saw_it.store(spin_until_set(kept_ran), std::memory_order_relaxed);
                           done.arrive();
                       }),
                       static_cast<unsigned>(ext::current_worker()));
    }));
    done.wait();
    EXPECT_TRUE(mailbox_saw_it.load());
}

}  // namespace
