// A team member that waits in a barrier parks (after the spin budget) and lets its
// worker run other loom tasks; it then resumes on the same worker, so native-TLS
// threadprivate data persists. Pool of 2: member 0 is the initial thread, member 1 runs
// on worker 1. Member 0 posts a loom task and spins until it ran; the only worker that
// can run it is worker 1, whose member waits in the barrier. If waiting members blocked
// their OS thread, this would never finish.
// loom-test: runtimes loom
// loom-test: link-loom
// loom-test: env OMP_NUM_THREADS=2 KMP_BLOCKTIME=0
// loom-test: timeout 60
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>

#include "loom/async.hpp"
#include "loom/ext/scheduler.hpp"

static int counter = 0;
#pragma omp threadprivate(counter)

int main() {
    int failures = 0;
    const int regions = 2000;
    std::atomic<int> ran_on{-2};
    for (int r = 0; r < regions; ++r) {
        std::atomic<bool> done{false};
#pragma omp parallel num_threads(2) reduction(+ : failures)
        {
            const int me = omp_get_thread_num();
            if (omp_get_num_threads() != 2) failures++;
            if (counter != r) failures++;  // threadprivate persists (same worker)
            counter++;
            const int worker = loom::ext::current_worker();
            if (me == 0) {
                // Let member 1 reach the barrier and park, then give its worker work.
                loom::post([&] {
                    ran_on.store(loom::ext::current_worker());
                    done.store(true);
                });
                const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                while (!done.load()) {
                    if (std::chrono::steady_clock::now() > limit) {
                        std::printf("region %d: the loom task never ran\n", r);
                        failures++;
                        break;
                    }
                }
            }
#pragma omp barrier
            if (loom::ext::current_worker() != worker) failures++;  // resumed elsewhere
        }
        if (failures) break;
    }
    // The task ran while the initial thread spun in user code: on worker 1.
    if (ran_on.load() != 1) {
        std::printf("last loom task ran on worker %d, expected 1\n", ran_on.load());
        failures++;
    }
    // 10^5 regions still pass with parking waits.
    long sum = 0;
    for (int r = 0; r < 100000; ++r) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
#pragma omp barrier
            sum += omp_get_thread_num() + 1;
        }
    }
    if (sum != 300000) {
        std::printf("sum %ld\n", sum);
        failures++;
    }
    if (failures) {
        std::printf("%d failures\n", failures);
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
