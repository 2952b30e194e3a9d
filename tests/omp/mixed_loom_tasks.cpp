// OpenMP regions entered from many loom tasks at once (the thread-limit rule): P loom
// tasks each enter regions requesting P threads on a pool of P workers. Each region gets
// the encountering worker plus the idle ones; members spin-wait on each other (a team
// must progress concurrently); the process never has more than P OS threads.
// loom-test: runtimes loom
// loom-test: link-loom
// loom-test: env OMP_NUM_THREADS=4
// loom-test: timeout 120
#include <dirent.h>
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <vector>

#include "loom/async.hpp"
#include "loom/future.hpp"
#include "loom/ext/scheduler.hpp"

static int os_threads() {
    int n = 0;
    if (DIR* d = opendir("/proc/self/task")) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

int main() {
    const int P = static_cast<int>(loom::ext::worker_count());
    if (P != omp_get_max_threads()) {
        std::printf("pool %d workers, max threads %d\n", P, omp_get_max_threads());
        return 1;
    }
    std::atomic<int> max_threads{os_threads()};
    std::atomic<int> bad{0}, teams_of_more_than_one{0};
    const int rounds = 3, regions = 60;
    for (int round = 0; round < rounds; ++round) {
        std::vector<loom::future<void>> tasks;
        for (int k = 0; k < P; ++k) {
            tasks.push_back(loom::async([&] {
                for (int r = 0; r < regions; ++r) {
                    std::atomic<int> arrived{0};
                    int n = 0;
#pragma omp parallel num_threads(P) reduction(+ : n)
                    {
                        const int size = omp_get_num_threads();
                        arrived.fetch_add(1);
                        while (arrived.load() < size) {
                        }  // members spin-wait on each other
                        n += 1;
#pragma omp barrier
                        if (omp_get_thread_num() == 0) {
                            int now = os_threads();
                            int seen = max_threads.load();
                            while (now > seen && !max_threads.compare_exchange_weak(seen, now)) {
                            }
                            if (size > 1) teams_of_more_than_one.fetch_add(1);
                        }
                    }
                    if (n < 1 || n > P || n != arrived.load()) bad.fetch_add(1);
                }
            }));
        }
        for (auto& f : tasks) f.get();
    }
    std::printf("%d workers, at most %d OS threads, %d regions with a team of 2+\n", P,
                max_threads.load(), teams_of_more_than_one.load());
    if (bad.load()) {
        std::printf("%d regions with a wrong team\n", bad.load());
        return 1;
    }
    if (max_threads.load() > P) {
        std::printf("more OS threads (%d) than workers (%d)\n", max_threads.load(), P);
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
