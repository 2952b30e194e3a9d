// The C++ API when workers cannot get their stacks: the process limits its address
// space (RLIMIT_AS, as `ulimit -v` does) before the pool starts with LOOM_NUM_THREADS=8
// and LOOM_STACKSIZE=8M. Workers that do not fit must not be counted: the pool is
// smaller, says so once, and runs every task, including ones that wait on others.
// Before, a worker without a fiber stayed idle but counted, and its mailbox work never
// ran. Exit code 0 and "resource_limit: passed" when it behaves.
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <loom/async.hpp>
#include <loom/ext/scheduler.hpp>

namespace {

long vm_size_kib() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmSize:", 7) == 0) std::sscanf(line + 7, "%ld", &kib);
    if (f) std::fclose(f);
    return kib;
}

long fib(int n) {
    if (n < 2) return n;
    auto left = loom::async([n] { return fib(n - 1); });
    long right = fib(n - 2);
    return left.get() + right;
}

}  // namespace

int main() {
    long vm = vm_size_kib();
    if (vm < 0 || vm > (1L << 30)) {  // sanitizer shadow: nothing to limit
        std::printf("resource_limit: skipped (VmSize %ld KiB); resource_limit: passed\n", vm);
        return 0;
    }
    const rlim_t bytes = static_cast<rlim_t>(vm + 48 * 1024) * 1024;
    rlimit lim{bytes, bytes};
    if (setrlimit(RLIMIT_AS, &lim) != 0) {
        std::perror("setrlimit");
        return 1;
    }
    const unsigned workers = loom::ext::worker_count();
    long got = fib(18);
    std::printf("workers %u, fib(18) = %ld\n", workers, got);
    if (workers >= 8 || workers < 1 || got != 2584) return 1;
    std::printf("resource_limit: passed\n");
    return 0;
}
