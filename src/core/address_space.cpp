#include "address_space.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace loom::core {

namespace {

// VmSize in bytes from /proc/self/statm (its first field, in pages); 0 if unreadable.
std::size_t mapped_bytes() noexcept {
    std::FILE* f = std::fopen("/proc/self/statm", "re");
    if (!f) return 0;
    unsigned long pages = 0;
    const int got = std::fscanf(f, "%lu", &pages);
    std::fclose(f);
    return got == 1 ? pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace

bool address_space_allows(std::size_t bytes) noexcept {
    rlimit lim{};
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return true;
    const std::size_t limit = lim.rlim_cur;
    const std::size_t used = mapped_bytes();
    // An unreadable /proc leaves the decision to mmap itself.
    if (used == 0 || used + bytes + address_space_reserve <= limit) return true;
    errno = ENOMEM;
    return false;
}

std::size_t default_thread_stack_size() noexcept {
    pthread_attr_t attr;
    std::size_t size = 0;
    if (pthread_getattr_default_np(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
    }
    return size;
}

}  // namespace loom::core
