// The exit contract (docs/architecture.md): work in flight when main returns finishes
// before the program's static destructors, within LOOM_EXIT_TIMEOUT; what is still
// unfinished then is named once and abandoned, queued tasks never start, and exit does
// not hang. argv[1] picks the case:
//   finish   a task posted just before main returns touches a global after 200 ms: it
//            must run before the global's destructor (before, it ran after: ASan
//            reported a use after free)
//   promise  a task waits on a promise nobody sets: exit within the bound, one message
//   spin     tasks that never end hold the workers, a task queued behind them must not
//            start once the exit gave up (it would read destroyed globals)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <loom/async.hpp>
#include <loom/future.hpp>

namespace {

struct guarded_global {
    std::vector<int> data = std::vector<int>(1000, 7);
    std::atomic<bool> destroyed{false};
    ~guarded_global() {
        destroyed.store(true);
        std::fprintf(stdout, "global destroyed\n");
        std::fflush(stdout);
    }
};
guarded_global g_global;

void touch_global(const char* who) {
    if (g_global.destroyed.load()) {
        std::fprintf(stdout, "%s: ran after the global's destructor\n", who);
        std::fflush(stdout);
        return;
    }
    long sum = 0;
    for (int v : g_global.data) sum += v;
    std::fprintf(stdout, "%s: global intact (%ld)\n", who, sum);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "finish") {
        loom::post([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            touch_global("late task");
        });
    } else if (mode == "promise") {
        static loom::promise<int>* never = new loom::promise<int>();
        loom::post([] { std::printf("waiting got %d\n", never->get_future().get()); });
    } else if (mode == "spin") {
        static std::atomic<bool> forever{true};
        const unsigned workers = 4;
        for (unsigned i = 0; i < workers; ++i)
            loom::post([] {
                while (forever.load(std::memory_order_relaxed)) std::this_thread::yield();
            });
        for (int i = 0; i < 8; ++i) loom::post([] { touch_global("queued task"); });
    } else {
        std::fprintf(stderr, "usage: %s finish|promise|spin\n", argv[0]);
        return 2;
    }
    std::printf("main returns\n");
    std::fflush(stdout);
    return 0;
}
