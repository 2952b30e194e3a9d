// Misuse reporting for the lock family (see lock_check.hpp).
#include "sync/lock_check.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace loom::omp {

namespace {

constexpr int max_reports = 20;

int decide_checks() noexcept {
    const char* v = std::getenv("LOOM_CHECK_LOCKS");
    if (v != nullptr && v[0] != '\0') {
        if (std::strcmp(v, "1") == 0 || std::strcmp(v, "true") == 0 ||
            std::strcmp(v, "on") == 0 || std::strcmp(v, "yes") == 0)
            return 1;
        if (std::strcmp(v, "0") == 0 || std::strcmp(v, "false") == 0 ||
            std::strcmp(v, "off") == 0 || std::strcmp(v, "no") == 0)
            return 0;
        static constexpr char msg[] =
            "loom: warning: LOOM_CHECK_LOCKS has an invalid value; "
            "using the build default\n";
        (void)!write(2, msg, sizeof msg - 1);
    }
#ifdef NDEBUG
    return 0;
#else
    return 1;
#endif
}

void append(char*& p, const char* end, const char* s) noexcept {
    while (*s != '\0' && p < end) *p++ = *s++;
}

}  // namespace

namespace detail {

constinit std::atomic<int> lock_checks_state{-1};

// A race decides twice with the same answer.
int decide_lock_checks() noexcept {
    const int s = decide_checks();
    lock_checks_state.store(s, std::memory_order_relaxed);
    return s;
}

}  // namespace detail

void report_lock_misuse(const char* routine, const char* what) noexcept {
    static std::atomic<int> reports{0};
    const int n = reports.fetch_add(1, std::memory_order_relaxed);
    if (n >= max_reports) return;
    char buf[512];
    char* p = buf;
    const char* end = buf + sizeof buf - 1;
    append(p, end, "loom: ");
    append(p, end, routine);
    append(p, end, ": ");
    append(p, end, what);
    if (n == max_reports - 1) append(p, end, " (further lock misuse reports are dropped)");
    *p++ = '\n';
    (void)!write(2, buf, static_cast<std::size_t>(p - buf));
}

}  // namespace loom::omp
