// Regions entered from many foreign std::threads at once: each finishes with a correct
// team (members spin-wait on each other), none hangs.
// loom-test: threads 4
// loom-test: timeout 120
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

int main() {
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&bad] {
            for (int r = 0; r < 60; ++r) {
                std::atomic<int> arrived{0};
                int n = 0;
#pragma omp parallel reduction(+ : n)
                {
                    // Members wait for each other: a team must progress concurrently.
                    int size = omp_get_num_threads();
                    arrived.fetch_add(1);
                    while (arrived.load() < size) {
                    }
                    n += 1;
#pragma omp barrier
                }
                if (n < 1 || n != arrived.load()) bad.fetch_add(1);
            }
        });
    }
    for (auto& th : threads) th.join();
    if (bad.load()) {
        std::fprintf(stderr, "%d bad regions\n", bad.load());
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
