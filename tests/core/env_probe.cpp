// Starts the pool from the environment and checks what it resolved to; any warning
// goes to stderr for the CTest regular expressions to judge.
#include <loom/ext/scheduler.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    loom::ext::ensure_started();
    int status = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        long expected = std::atol(argv[i + 1]);
        long actual = -1;
        if (!std::strcmp(argv[i], "--expect-threads")) actual = loom::ext::worker_count();
        if (!std::strcmp(argv[i], "--expect-stack")) actual = static_cast<long>(loom::ext::stack_size());
        if (!std::strcmp(argv[i], "--expect-spin")) actual = loom::ext::spin_budget_us();
        if (!std::strcmp(argv[i], "--expect-pinned")) actual = loom::ext::worker_place(0).empty() ? 0 : 1;
        if (actual != expected) {
            std::printf("%s: expected %ld, got %ld\n", argv[i], expected, actual);
            status = 1;
        }
    }
    std::printf("threads=%u stack=%zu spin=%ld\n", loom::ext::worker_count(), loom::ext::stack_size(),
                loom::ext::spin_budget_us());
    loom::ext::shutdown();
    return status;
}
