// loom coroutines that co_await from inside an OpenMP region. Each member of a parallel
// region starts a coroutine (on its implicit task) that co_awaits a ready future (no
// suspension: still inside the region), then loom tasks that are still running
// (it suspends, and the member's get() waits while the tasks run on the pool), then a
// lazy recursion of spawned tasks; after its first suspension the coroutine goes on as
// a loom task, where it opens an OpenMP region of its own (OpenMP called from a task).
// loom-test: link-loom
// loom-test: env OMP_NUM_THREADS=4
// loom-test: timeout 120
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>

#include "loom/async.hpp"
#include "loom/coroutine.hpp"
#include "loom/lazy.hpp"

namespace {

long spin_then(long v) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(300);
    while (std::chrono::steady_clock::now() < end) {
    }
    return v;
}

long region_sum(int n) {
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; ++i) sum += i;
    return sum;
}

loom::lazy<long> fib(int n) {
    if (n < 2) co_return n;
    auto a = loom::spawn(fib(n - 1));
    const long b = co_await fib(n - 2);
    co_return co_await std::move(a) + b;
}

struct outcome {
    long value;
    bool in_region_before_suspension;
};

loom::future<outcome> member(int tid) {
    long v = co_await loom::make_ready_future(long(tid));
    const bool in_region = omp_in_parallel() != 0 && omp_get_thread_num() == tid;
    v += co_await loom::async([tid] { return spin_then(10L * tid); });
    v += co_await loom::async([] { return spin_then(1000L); });
    v += co_await fib(15);
    v += region_sum(100);
    co_return outcome{v, in_region};
}

}  // namespace

int main() {
    std::atomic<int> bad{0};
    const int rounds = 20;
    for (int round = 0; round < rounds; ++round) {
#pragma omp parallel num_threads(4)
        {
            const int tid = omp_get_thread_num();
            const outcome r = member(tid).get();
            const long want = tid + 10L * tid + 1000 + 610 + 4950;
            if (r.value != want || !r.in_region_before_suspension) {
                std::printf("round %d member %d: value %ld (want %ld), in region %d\n", round, tid, r.value, want,
                            int(r.in_region_before_suspension));
                bad.fetch_add(1);
            }
        }
    }
    if (bad.load() != 0) return 1;
    std::printf("coro_in_region: all passed\n");
    return 0;
}
