#include "stack_guard.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <mutex>
#include <new>

namespace loom::core {

namespace {

std::size_t page_size() noexcept {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

// ---- the registry of guard ranges ---------------------------------------------------
//
// Writers (fiber creation and destruction) take a mutex; the reader is the signal
// handler, which may interrupt a writer on its own thread and so must never wait. Each
// entry is a small seqlock: a writer makes `seq` odd, stores the fields with release,
// and makes `seq` even again; a reader that sees the same even `seq` before and after
// its acquire loads of the fields has a consistent range. Entries live in chunks that
// are allocated on demand and never freed, so the reader can walk them at any time.
struct entry {
    std::atomic<std::uint32_t> seq{0};
    std::atomic<std::uintptr_t> lo{0};
    std::atomic<std::uintptr_t> hi{0};
    std::atomic<std::size_t> usable{0};
    int next_free = -1;  // free list, under registry_lock only
};

// 1024 x 1024 entries: above the number of fibers the kernel lets a process map
// (vm.max_map_count, 65530 by default, with two mappings per fiber).
constexpr std::uint32_t chunk_entries = 1024;
constexpr std::uint32_t max_chunks = 1024;

std::atomic<entry*> chunks[max_chunks] = {};
std::atomic<std::uint32_t> entries_used{0};  // entries [0, used) may be in use
std::mutex registry_lock;
int first_free = -1;

entry& entry_at(std::uint32_t i) noexcept {
    return chunks[i / chunk_entries].load(std::memory_order_acquire)[i % chunk_entries];
}

void write_entry(entry& e, std::uintptr_t lo, std::uintptr_t hi, std::size_t usable) noexcept {
    const std::uint32_t s = e.seq.load(std::memory_order_relaxed);
    e.seq.store(s + 1, std::memory_order_relaxed);
    // Release stores: a reader that sees any of them also sees the odd `seq` above.
    e.lo.store(lo, std::memory_order_release);
    e.hi.store(hi, std::memory_order_release);
    e.usable.store(usable, std::memory_order_release);
    e.seq.store(s + 2, std::memory_order_release);
}

// Async-signal-safe: atomic loads only, bounded retries.
bool find_guard(std::uintptr_t addr, std::size_t* usable) noexcept {
    const std::uint32_t used = entries_used.load(std::memory_order_acquire);
    for (std::uint32_t i = 0; i < used; ++i) {
        entry* chunk = chunks[i / chunk_entries].load(std::memory_order_acquire);
        if (!chunk) break;  // published before `used` grows past it: cannot happen
        entry& e = chunk[i % chunk_entries];
        for (int attempt = 0; attempt < 64; ++attempt) {
            const std::uint32_t before = e.seq.load(std::memory_order_acquire);
            if (before & 1) continue;  // a writer on another thread is in the middle
            const std::uintptr_t lo = e.lo.load(std::memory_order_acquire);
            const std::uintptr_t hi = e.hi.load(std::memory_order_acquire);
            const std::size_t size = e.usable.load(std::memory_order_acquire);
            if (e.seq.load(std::memory_order_relaxed) != before) continue;
            if (lo <= addr && addr < hi) {
                *usable = size;
                return true;
            }
            break;
        }
    }
    return false;
}

// ---- the SIGSEGV handler ------------------------------------------------------------

struct sigaction previous_action;  // written once, before ours is installed
bool handler_installed = false;    // under registry_lock
std::atomic<bool> reported{false};

void reset_to_default(int sig) noexcept {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
}

// Appends `s` / the decimal `n` to buf at *len (async-signal-safe formatting).
void append(char* buf, std::size_t cap, std::size_t* len, const char* s) noexcept {
    while (*s && *len + 1 < cap) buf[(*len)++] = *s++;
}
void append(char* buf, std::size_t cap, std::size_t* len, std::size_t n) noexcept {
    char digits[24];
    int k = 0;
    do {
        digits[k++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n && k < 24);
    while (k > 0 && *len + 1 < cap) buf[(*len)++] = digits[--k];
}

void report_overflow(std::size_t usable) noexcept {
    if (reported.exchange(true, std::memory_order_relaxed)) return;  // one line per process
    char line[256];
    std::size_t len = 0;
    append(line, sizeof line, &len, "loom: fiber stack overflow (task stack of ");
    append(line, sizeof line, &len, usable / 1024);
    append(line, sizeof line, &len,
           " KiB exhausted); set LOOM_STACKSIZE (or OMP_STACKSIZE for OpenMP) to a larger size\n");
    for (std::size_t done = 0; done < len;) {
        const ssize_t n = write(STDERR_FILENO, line + done, len - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
}

// What the process would have done without loom's handler.
void forward(int sig, siginfo_t* info, void* uctx) noexcept {
    const struct sigaction prev = previous_action;
    // A signal sent with kill()/raise() (si_code <= 0) does not repeat on return.
    const bool sent = info == nullptr || info->si_code <= 0;
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_flags & SA_RESETHAND) reset_to_default(sig);
        prev.sa_sigaction(sig, info, uctx);
        return;
    }
    if (prev.sa_handler == SIG_IGN && sent) return;
    if (prev.sa_handler == SIG_DFL || prev.sa_handler == SIG_IGN) {
        // A fault cannot be ignored: the kernel kills with the default action then too.
        // Returning repeats the faulting access, which now meets the default action;
        // a sent signal is raised again and delivered once this handler returns.
        reset_to_default(sig);
        if (sent) raise(sig);
        return;
    }
    if (prev.sa_flags & SA_RESETHAND) reset_to_default(sig);
    prev.sa_handler(sig);
}

void on_segv(int sig, siginfo_t* info, void* uctx) {
    const int saved_errno = errno;
    std::size_t usable = 0;
    if (info && info->si_code > 0 && find_guard(reinterpret_cast<std::uintptr_t>(info->si_addr), &usable)) {
        report_overflow(usable);
        // Die as without loom: the access repeats on return and meets the default
        // action (a core dump then shows the overflowing frame).
        reset_to_default(sig);
        errno = saved_errno;
        return;
    }
    errno = saved_errno;
    forward(sig, info, uctx);
}

// fork() while another thread holds registry_lock would leave it locked for good in
// the child, whose pool maps fresh fibers: the forking thread takes it across fork().
void lock_for_fork() { registry_lock.lock(); }
void unlock_after_fork() { registry_lock.unlock(); }

// Under registry_lock, at the first registration.
void install_handler() noexcept {
    if (handler_installed) return;
    handler_installed = true;
    pthread_atfork(&lock_for_fork, &unlock_after_fork, &unlock_after_fork);
    if (sigaction(SIGSEGV, nullptr, &previous_action) != 0) return;
    struct sigaction ours {};
    ours.sa_sigaction = &on_segv;
    // SA_ONSTACK: the faulting stack has no room left for the handler's frame.
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
    // The previous handler, when it runs through ours, blocks what it asked for.
    ours.sa_mask = previous_action.sa_mask;
    sigaction(SIGSEGV, &ours, nullptr);
}

}  // namespace

std::size_t guard_size(std::size_t usable) noexcept {
    const std::size_t page = page_size();
    const std::size_t wanted = std::clamp(usable / 8, std::size_t{64} << 10, std::size_t{1} << 20);
    return std::max(page, (wanted + page - 1) / page * page);
}

int register_guard(const void* lo, std::size_t guard_bytes, std::size_t usable) noexcept {
    std::lock_guard<std::mutex> hold(registry_lock);
    install_handler();
    std::uint32_t index;
    if (first_free >= 0) {
        index = static_cast<std::uint32_t>(first_free);
        first_free = entry_at(index).next_free;
    } else {
        index = entries_used.load(std::memory_order_relaxed);
        if (index >= chunk_entries * max_chunks) return -1;
        auto& chunk = chunks[index / chunk_entries];
        if (!chunk.load(std::memory_order_relaxed)) {
            entry* fresh = new (std::nothrow) entry[chunk_entries];
            if (!fresh) return -1;
            chunk.store(fresh, std::memory_order_release);
        }
        entries_used.store(index + 1, std::memory_order_release);
    }
    const auto base = reinterpret_cast<std::uintptr_t>(lo);
    write_entry(entry_at(index), base, base + guard_bytes, usable);
    return static_cast<int>(index);
}

void unregister_guard(int id) noexcept {
    if (id < 0) return;
    std::lock_guard<std::mutex> hold(registry_lock);
    entry& e = entry_at(static_cast<std::uint32_t>(id));
    write_entry(e, 0, 0, 0);
    e.next_free = first_free;
    first_free = id;
}

void alt_signal_stack::enable() noexcept {
    if (mapping_) return;
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    const std::size_t page = page_size();
    // Room for our handler and for a previous one it forwards to (a sanitizer's
    // report, a user's handler); a guard page below makes an overflow of it fault.
    long min_size = sysconf(_SC_SIGSTKSZ);
    std::size_t size = std::max<std::size_t>(std::size_t{64} << 10, min_size > 0 ? static_cast<std::size_t>(min_size) : 0);
    size = (size + page - 1) / page * page;
    void* mem = mmap(nullptr, size + page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return;
    char* sp = static_cast<char*>(mem) + page;
    stack_t ss{};
    ss.ss_sp = sp;
    ss.ss_size = size;
    ss.ss_flags = 0;
    if (mprotect(sp, size, PROT_READ | PROT_WRITE) != 0 || sigaltstack(&ss, nullptr) != 0) {
        munmap(mem, size + page);
        return;
    }
    mapping_ = mem;
    mapping_size_ = size + page;
    owner_tid_ = gettid();
}

void alt_signal_stack::disable() noexcept {
    if (!mapping_) return;
    if (gettid() != owner_tid_) {
        // Another thread (a pool may end elsewhere than where it began): the stack
        // stays its owner's, mapped, for the rest of the process.
        mapping_ = nullptr;
        return;
    }
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == static_cast<char*>(mapping_) + page_size()) {
        if (current.ss_flags & SS_ONSTACK) return;  // running on it: leave it (never here)
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        sigaltstack(&off, nullptr);
    }
    // Otherwise the thread has installed a stack of its own since: ours is unused.
    munmap(mapping_, mapping_size_);
    mapping_ = nullptr;
    mapping_size_ = 0;
}

}  // namespace loom::core
