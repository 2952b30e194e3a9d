// Task records: the 128-byte record and the large size classes, cached per thread
// (workers and threads outside the pool alike), and closures of every size in them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>
#include <new>
#include <thread>

#include "test_support.hpp"

// Aligned allocations are counted per thread: task records are the only users of
// aligned operator new here, so the count says when this thread took a record from the
// heap (other threads of the pool may take theirs meanwhile). Not under ASan, whose
// own operator new the shared library keeps calling while deletes would come here.
#if defined(__SANITIZE_ADDRESS__)
#define LOOM_TEST_COUNTS_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOOM_TEST_COUNTS_HEAP 0
#endif
#endif
#ifndef LOOM_TEST_COUNTS_HEAP
#define LOOM_TEST_COUNTS_HEAP 1
#endif

namespace {
thread_local long t_aligned_news = 0;
}

#if LOOM_TEST_COUNTS_HEAP
void* operator new(std::size_t bytes, std::align_val_t align) {
    ++t_aligned_news;
    const auto a = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(a, (bytes + a - 1) / a * a)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#define SKIP_UNLESS_COUNTING() ((void)0)
#else
#define SKIP_UNLESS_COUNTING() GTEST_SKIP() << "the heap is ASan's here"
#endif

namespace {

using namespace loom;
using loom_test::run_in_task;

bool aligned_to_record(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % alignof(ext::task) == 0;
}

// Fills the whole storage a record promises, so that a record too small for it is
// caught (by the sanitizer builds, or by the check of the pattern).
void fill_and_check(ext::task* t, std::size_t bytes) {
    auto* p = static_cast<unsigned char*>(t->storage_address());
    for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 7 + 1);
    for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7 + 1));
}

TEST(TaskRecords, LargeRecordsHoldWhatTheyPromise) {
    for (std::size_t bytes : {std::size_t{1}, std::size_t{96}, std::size_t{97}, std::size_t{224},
                              std::size_t{225}, std::size_t{480}, std::size_t{481},
                              ext::max_pooled_storage, ext::max_pooled_storage + 1,
                              std::size_t{5000}}) {
        SCOPED_TRACE(bytes);
        ext::task* t = ext::allocate_large_task(bytes);
        EXPECT_TRUE(aligned_to_record(t));
        EXPECT_EQ(t->home, -1);
        EXPECT_EQ(t->owner, nullptr);
        fill_and_check(t, bytes);
        ext::free_large_task(t);
    }
}

// A freed record comes back on the next request of its class on the same thread, and
// only for its class.
void expect_reuse_by_class() {
    ext::task* small = ext::allocate_task();
    ext::free_task(small);
    EXPECT_EQ(ext::allocate_task(), small);

    ext::task* mid = ext::allocate_large_task(300);   // the 512-byte class
    ext::free_large_task(mid);
    ext::task* other = ext::allocate_large_task(200);  // the 256-byte class
    EXPECT_NE(other, mid);
    ext::task* again = ext::allocate_large_task(480);  // the 512-byte class again
    EXPECT_EQ(again, mid);
    ext::free_large_task(other);
    ext::free_large_task(again);
    ext::free_task(small);
}

// After one record of each class has been freed, creating and freeing records of any
// pooled size takes nothing from the heap.
void expect_no_heap_in_steady_state() {
    for (std::size_t bytes : {std::size_t{200}, std::size_t{400}, std::size_t{900}}) {
        ext::free_large_task(ext::allocate_large_task(bytes));
    }
    ext::free_task(ext::allocate_task());
    const long before = t_aligned_news;
    for (int i = 0; i < 1000; ++i) {
        ext::task* a = ext::allocate_task();
        ext::task* b = ext::allocate_large_task(100 + (i % 9) * 100);
        ext::free_large_task(b);
        ext::free_task(a);
    }
    EXPECT_EQ(t_aligned_news - before, 0);
    ext::task* huge = ext::allocate_large_task(ext::max_pooled_storage + 1);
    EXPECT_EQ(t_aligned_news - before, 1) << "beyond the classes: a heap block";
    ext::free_large_task(huge);
}

TEST(TaskRecords, PooledSizesTakeNothingFromTheHeapOnAWorker) {
    SKIP_UNLESS_COUNTING();
    run_in_task([] { expect_no_heap_in_steady_state(); });
}

TEST(TaskRecords, PooledSizesTakeNothingFromTheHeapOutsideThePool) {
    SKIP_UNLESS_COUNTING();
    std::thread outside([] { expect_no_heap_in_steady_state(); });
    outside.join();
}

TEST(TaskRecords, WorkersReuseRecordsByClass) { run_in_task([] { expect_reuse_by_class(); }); }

TEST(TaskRecords, ThreadsOutsideThePoolReuseRecordsToo) {
    std::thread outside([] { expect_reuse_by_class(); });
    outside.join();
}

TEST(TaskRecords, ARecordFreedOnAnotherThreadJoinsThatThreadsCache) {
    ext::task* made = nullptr;
    std::thread maker([&] { made = ext::allocate_large_task(700); });
    maker.join();
    std::thread user([&] {
        ext::free_large_task(made);
        EXPECT_EQ(ext::allocate_large_task(600), made);
        ext::free_large_task(made);
    });
    user.join();
}

// A producer whose records all die on another thread (a thief ran them) gets them back
// through the depot of full batches: it takes from the heap only about what is in
// flight and in the consumer's own list, not one block per record.
TEST(TaskRecords, RecordsFreedElsewhereComeBackToTheirProducer) {
    SKIP_UNLESS_COUNTING();
    constexpr int total = 100000, chunk = 100;
    std::mutex m;
    std::vector<std::vector<ext::task*>> handed;
    bool done = false;
    long producer_heap = 0;
    std::thread consumer([&] {
        for (;;) {
            std::vector<ext::task*> got;
            {
                std::lock_guard<std::mutex> g(m);
                if (!handed.empty()) {
                    got = std::move(handed.back());
                    handed.pop_back();
                } else if (done) {
                    return;
                }
            }
            for (ext::task* t : got) {
                if (t->size_class == 0) ext::free_task(t);
                else ext::free_large_task(t);
            }
            if (got.empty()) std::this_thread::yield();
        }
    });
    std::thread producer([&] {
        const long before = t_aligned_news;
        for (int i = 0; i < total; i += chunk) {
            std::vector<ext::task*> batch;
            for (int k = 0; k < chunk; ++k)
                batch.push_back(k % 2 ? ext::allocate_task() : ext::allocate_large_task(300));
            for (;;) {  // at most 20 chunks in flight
                std::lock_guard<std::mutex> g(m);
                if (handed.size() < 20) {
                    handed.push_back(std::move(batch));
                    break;
                }
            }
        }
        producer_heap = t_aligned_news - before;
        std::lock_guard<std::mutex> g(m);
        done = true;
    });
    producer.join();
    consumer.join();
    // In flight: 20 chunks; in the consumer's lists: a batch per class (512 + 256).
    EXPECT_LT(producer_heap, 6000) << "of " << total << " records";
}

template <std::size_t N>
struct payload {
    unsigned char bytes[N];
};

template <std::size_t N>
void run_closure_of_size() {
    payload<N> p;
    for (std::size_t i = 0; i < N; ++i) p.bytes[i] = static_cast<unsigned char>(i % 251);
    bool intact = false;
    run_in_task([&] {
        ext::wait_slot done;
        ext::submit(ext::make_task([p, &intact, &done] {
            intact = true;
            for (std::size_t i = 0; i < N; ++i) intact = intact && p.bytes[i] == i % 251;
            done.notify();
        }));
        done.wait();
    });
    EXPECT_TRUE(intact) << N << "-byte closure";
}

TEST(TaskRecords, ClosuresOfEverySizeArriveIntact) {
    run_closure_of_size<64>();
    run_closure_of_size<200>();
    run_closure_of_size<450>();
    run_closure_of_size<900>();
    run_closure_of_size<4000>();
}

TEST(TaskRecords, OverAlignedClosuresKeepTheirAlignment) {
    struct alignas(128) wide {
        int v = 7;
    };
    wide w;
    bool ok = false;
    run_in_task([&] {
        ext::wait_slot done;
        ext::submit(ext::make_task([w, &ok, &done] {
            ok = reinterpret_cast<std::uintptr_t>(&w) % 128 == 0 && w.v == 7;
            done.notify();
        }));
        done.wait();
    });
    EXPECT_TRUE(ok);
}

}  // namespace
