// Uses the installed loom through its public headers only. Built by CMake
// (find_package(loom)) and by pkg-config (loom.pc); see check.sh.
#include <cstdio>

#if __has_include(<loom/loom.hpp>)
#include <loom/loom.hpp>
#define LOOM_CONSUMER_API 1
#else
#include <loom/ext/scheduler.hpp>
#define LOOM_CONSUMER_API 0
#endif

int main() {
#if LOOM_CONSUMER_API
    const int answer = loom::async([] { return 6 * 7; }).get();
    if (answer != 42) {
        std::fprintf(stderr, "loom_consumer: loom::async gave %d, expected 42\n", answer);
        return 1;
    }
    std::printf("loom_consumer: loom::async(...).get() = %d\n", answer);
#else
    const unsigned workers = loom::ext::worker_count();
    if (workers == 0) {
        std::fprintf(stderr, "loom_consumer: no workers\n");
        return 1;
    }
    std::printf("loom_consumer: %u workers\n", workers);
#endif
    return 0;
}
