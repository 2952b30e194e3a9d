// Fiber stack overflow (docs/architecture.md, "Fiber stacks and overflow").
//
//   loom_api_stack_overflow <expect> <scenario> <stack KiB>
//
// runs `<self> --child <scenario> <stack KiB>` (the pool lives only in the child, which
// gets LOOM_NUM_THREADS / LOOM_STACKSIZE from the test's environment), captures its
// output and judges how it ended against <expect>:
//   overflow  killed by SIGSEGV, with exactly one loom line naming a fiber stack
//             overflow of <stack KiB> and the variables that set the size
//   silent    killed by SIGSEGV without that line (a fault that is not an overflow)
//   exit:N    exited with status N, without that line
// and in every case without a report of a corrupted neighbour. Prints
// "stack_overflow: passed" when the child behaved.
//
// Scenarios (the child):
//   recurse     eight parked tasks each hold a 64 KiB canary on their stacks; the one
//               whose stack lies just above another's is resumed and recurses in 1 KiB
//               frames until it runs off its stack
//   unprobed    the same, but it descends to about 16-24 KiB above the end of its stack
//               and calls a 48 KiB frame built without stack probes: with a 4 KiB guard
//               page its writes land in the parked neighbour's canary and the program
//               goes on (it then reports the corruption); loom's guard is larger
//   probed      the same with a 200 KiB frame (larger than any guard) built with
//               -fstack-clash-protection: its page-by-page probes meet the guard
//   deep        recursion of 10^4 levels, each blocked on the future of the next
//   main_fiber  like recurse (no neighbours), run by the adopted main thread on a fiber
//   wild        a task writes to address 16: not an overflow, loom must stay out of it
//   user_wild / user_overflow
//               wild / recurse after the program installed its own SIGSEGV handler:
//               a wild fault reaches it unchanged (it exits 42), an overflow does not
//   altstack    signal stacks: a pool thread has one, the main thread keeps its own
//   fork_deep   deep, in a fork child of a process whose pool had parked tasks (the
//               child's new pool maps fresh fibers; their overflow is reported too)
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <loom/async.hpp>
#include <loom/future.hpp>
#include <loom/runtime.hpp>

int unprobed_frame(int fill);  // stack_overflow_frames.cpp, no probes, 48 KiB
int probed_frame(int fill);    // stack_overflow_frames.cpp, probed, 200 KiB

namespace {

const char* const overflow_line_head = "loom: fiber stack overflow (task stack of ";
const char* const overflow_line_tail =
    " KiB exhausted); set LOOM_STACKSIZE (or OMP_STACKSIZE for OpenMP) to a larger size";

// ---- the child ----------------------------------------------------------------------

enum class scenario { recurse, unprobed, probed, deep, main_fiber, wild, user_wild, user_overflow, altstack, fork_deep };

scenario parse_scenario(const char* s) {
    const std::string n = s;
    if (n == "recurse") return scenario::recurse;
    if (n == "unprobed") return scenario::unprobed;
    if (n == "probed") return scenario::probed;
    if (n == "deep") return scenario::deep;
    if (n == "main_fiber") return scenario::main_fiber;
    if (n == "wild") return scenario::wild;
    if (n == "user_wild") return scenario::user_wild;
    if (n == "user_overflow") return scenario::user_overflow;
    if (n == "altstack") return scenario::altstack;
    if (n == "fork_deep") return scenario::fork_deep;
    std::fprintf(stderr, "unknown scenario %s\n", s);
    std::exit(2);
}

std::size_t stack_bytes = 0;

// Descends in 1 KiB frames (each written at both ends, so every page is touched) until
// `top - sp` reaches `stop_at`, then calls the big frame; stop_at 0: forever.
__attribute__((noinline)) int descend(std::uintptr_t top, std::size_t stop_at, scenario s) {
    volatile unsigned char pad[1024];
    pad[0] = 1;
    pad[1023] = 2;
    const auto sp = reinterpret_cast<std::uintptr_t>(&pad[0]);
    if (stop_at == 0 || top - sp < stop_at) return descend(top, stop_at, s) + pad[0] + pad[1023];
    std::printf("descended %zu KiB; calling the %s frame\n", (top - sp) / 1024,
                s == scenario::probed ? "200 KiB probed" : "48 KiB unprobed");
    std::fflush(stdout);
    return (s == scenario::probed ? probed_frame(0xA5) : unprobed_frame(0xA5)) + pad[1];
}

int overflow(std::uintptr_t top, scenario s) {
    if (s == scenario::unprobed || s == scenario::probed) {
        // Stop 24 KiB short of the stack's end as measured from `top` (the task's frames
        // start a little below the fiber's top, so 16-24 KiB are left).
        return descend(top, stack_bytes - 24 * 1024, s);
    }
    return descend(top, 0, s);
}

// Parked neighbours -------------------------------------------------------------------

constexpr int n_tasks = 8;
constexpr std::size_t canary_bytes = 64 * 1024;
constexpr int cmd_verify = 0;
constexpr int cmd_overflow = 1;

struct neighbour {
    loom::promise<int> go;
    std::atomic<std::uintptr_t> canary{0};
};
neighbour slots[n_tasks];
std::atomic<int> ready{0};

unsigned char pattern(int task, std::size_t i) {
    return static_cast<unsigned char>(0x5A ^ (task * 37) ^ (i * 13));
}

int neighbour_task(int i, scenario s, loom::future<int> go) {
    unsigned char canary[canary_bytes];
    for (std::size_t k = 0; k < canary_bytes; ++k) canary[k] = pattern(i, k);
    asm volatile("" : : "r"(canary) : "memory");
    slots[i].canary.store(reinterpret_cast<std::uintptr_t>(canary));
    ready.fetch_add(1);
    const int cmd = go.get();  // parks: the worker goes on with a fresh fiber
    asm volatile("" : : "r"(canary) : "memory");
    if (cmd == cmd_overflow) return overflow(reinterpret_cast<std::uintptr_t>(canary + canary_bytes), s);
    std::size_t bad = 0;
    for (std::size_t k = 0; k < canary_bytes; ++k) bad += canary[k] != pattern(i, k);
    if (bad) {
        std::printf("task %d: stack corrupted while parked (%zu of %zu canary bytes changed)\n", i, bad,
                    canary_bytes);
    }
    return bad ? 1 : 0;
}

int run_neighbours(scenario s) {
    std::vector<loom::future<int>> done;
    for (int i = 0; i < n_tasks; ++i)
        done.push_back(loom::async([i, s, go = slots[i].go.get_future()]() mutable {
            return neighbour_task(i, s, std::move(go));
        }));
    while (ready.load() < n_tasks) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the last one parks
    // The task whose stack lies nearest above another's overflows towards it.
    int over = 0, below = -1;
    std::uintptr_t best = UINTPTR_MAX;
    for (int i = 0; i < n_tasks; ++i)
        for (int j = 0; j < n_tasks; ++j) {
            const std::uintptr_t ci = slots[i].canary.load(), cj = slots[j].canary.load();
            if (cj < ci && ci - cj < best) {
                best = ci - cj;
                over = i;
                below = j;
            }
        }
    std::printf("task %d overflows; task %d's canary lies %zu KiB below its own (stack %zu KiB)\n", over,
                below, static_cast<std::size_t>(best / 1024), stack_bytes / 1024);
    std::fflush(stdout);
    slots[over].go.set_value(cmd_overflow);
    done[over].get();
    std::printf("the overflowing task returned\n");
    int corrupted = 0;
    for (int i = 0; i < n_tasks; ++i) {
        if (i == over) continue;
        slots[i].go.set_value(cmd_verify);
        corrupted += done[i].get();
    }
    if (corrupted)
        std::printf("%d neighbours corrupted\n", corrupted);
    else
        std::printf("neighbours intact\n");
    return 0;
}

// Deep recursion blocked on futures ---------------------------------------------------

long depth(int n) {
    if (n == 0) return 0;
    auto next = loom::async(depth, n - 1);
    return next.get() + 1;
}

// The main thread on a fiber ----------------------------------------------------------

int run_main_fiber() {
    // Worker 1 is held by a spinning task, so the work main finds while it waits is
    // the overflowing task, and main runs it on a pooled fiber (on its native stack,
    // run inline from its own deque, it would not be a fiber overflow).
    std::atomic<bool> spinning{false};
    loom::post([&spinning] {
        spinning.store(true);
        for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (!spinning.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    int marker = 0;
    loom::post([&marker] {
        std::printf("overflowing on worker %d\n", loom::this_worker());
        std::fflush(stdout);
        marker = overflow(reinterpret_cast<std::uintptr_t>(&marker), scenario::recurse);
    });
    loom::promise<void> never;
    never.get_future().get();  // parks main's own context: main runs the loop on a fiber
    return 1;
}

// Faults that are not overflows --------------------------------------------------------

void user_handler(int, siginfo_t* info, void*) {
    const char* msg = reinterpret_cast<std::uintptr_t>(info->si_addr) == 16 ? "user handler: fault at 16\n"
                                                                              : "user handler: another fault\n";
    if (write(STDOUT_FILENO, msg, std::strlen(msg)) < 0) _exit(44);
    _exit(42);
}

void install_user_handler() {
    struct sigaction sa {};
    sa.sa_sigaction = &user_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
}

int run_wild() {
    loom::async([] {
        volatile std::uintptr_t addr = 16;
        *reinterpret_cast<volatile int*>(addr) = 1;
    }).get();
    return 0;
}

// Signal stacks --------------------------------------------------------------------------

bool has_altstack() {
    stack_t ss{};
    return sigaltstack(nullptr, &ss) == 0 && !(ss.ss_flags & SS_DISABLE);
}

int run_altstack() {
    alignas(16) static char own[64 * 1024];
    int failures = 0;
    {
        // Main has no signal stack: while it is slot 0 of a pool it gets loom's, after
        // the pool it has none again.
        loom::runtime rt{loom::runtime_options{.num_threads = 2}};
        std::atomic<bool> pool_thread_has_one{false}, seen{false};
        while (!seen.load()) {
            loom::async([&] {
                if (loom::this_worker() == 1) {
                    pool_thread_has_one.store(has_altstack());
                    seen.store(true);
                }
            }).get();
        }
        if (!pool_thread_has_one.load()) {
            std::printf("altstack: a pool thread has no signal stack\n");
            ++failures;
        }
        if (!has_altstack()) {
            std::printf("altstack: slot 0 (main) has no signal stack in the pool\n");
            ++failures;
        }
    }
    if (has_altstack()) {
        std::printf("altstack: main keeps loom's signal stack after the pool\n");
        ++failures;
    }
    // Main has its own: loom leaves it in place, in the pool and after.
    stack_t mine{};
    mine.ss_sp = own;
    mine.ss_size = sizeof own;
    sigaltstack(&mine, nullptr);
    {
        loom::runtime rt{loom::runtime_options{.num_threads = 2}};
        loom::async([] {}).get();
        stack_t now{};
        sigaltstack(nullptr, &now);
        if (now.ss_sp != own) {
            std::printf("altstack: main's own signal stack was replaced\n");
            ++failures;
        }
    }
    stack_t after{};
    sigaltstack(nullptr, &after);
    if (after.ss_sp != own || (after.ss_flags & SS_DISABLE)) {
        std::printf("altstack: main's own signal stack is gone after the pool\n");
        ++failures;
    }
    if (!failures) std::printf("altstack: ok\n");
    return failures ? 1 : 0;
}

int run_deep() {
    const long got = loom::async(depth, 10000).get();
    std::printf("depth %ld\n", got);
    return got == 10000 ? 0 : 1;
}

int run_fork_deep() {
    // Parked tasks first, so that fibers exist (and were registered) before the fork.
    loom::promise<int> p;
    auto waiter = loom::async([f = p.get_future()]() mutable { return f.get(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    p.set_value(1);
    waiter.get();
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) _exit(run_deep());
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {  // end as the fork child did
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int run_child(scenario s) {
    // A dying child writes no core file.
    rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    switch (s) {
    case scenario::recurse:
    case scenario::unprobed:
    case scenario::probed: return run_neighbours(s);
    case scenario::user_overflow: install_user_handler(); return run_neighbours(scenario::recurse);
    case scenario::deep: return run_deep();
    case scenario::fork_deep: return run_fork_deep();
    case scenario::main_fiber: return run_main_fiber();
    case scenario::wild: return run_wild();
    case scenario::user_wild: install_user_handler(); return run_wild();
    case scenario::altstack: return run_altstack();
    }
    return 2;
}

// ---- the parent -----------------------------------------------------------------------

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

int run_parent(const std::string& expect, const char* scen, const char* stack_kib) {
    int fds[2];
    if (pipe(fds) != 0) return 2;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl("/proc/self/exe", "/proc/self/exe", "--child", scen, stack_kib, static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    std::printf("---- child output (%s) ----\n%s---- end ----\n", scen, out.c_str());

    const std::string line = std::string(overflow_line_head) + stack_kib + overflow_line_tail;
    const bool segv = WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
    std::string why;
    if (WIFSIGNALED(status)) std::printf("child killed by signal %d\n", WTERMSIG(status));
    if (WIFEXITED(status)) std::printf("child exited with %d\n", WEXITSTATUS(status));
    if (count(out, "corrupted")) why += " a neighbour's stack was corrupted;";
    if (expect == "overflow") {
        if (!segv) why += " the child did not die by SIGSEGV;";
        if (count(out, line) != 1) why += " not exactly one line '" + line + "';";
        if (count(out, overflow_line_head) != 1) why += " not exactly one overflow report;";
    } else if (expect == "silent") {
        if (!segv) why += " the child did not die by SIGSEGV;";
        if (count(out, overflow_line_head)) why += " a fault that is not an overflow was reported as one;";
    } else if (expect.rfind("exit:", 0) == 0) {
        const int code = std::atoi(expect.c_str() + 5);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != code) why += " the child did not exit with " + expect.substr(5) + ";";
        if (count(out, overflow_line_head)) why += " an overflow was reported;";
    } else {
        why += " unknown expectation " + expect + ";";
    }
    if (!why.empty()) {
        std::printf("stack_overflow: FAILED:%s\n", why.c_str());
        return 1;
    }
    std::printf("stack_overflow: passed\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--child") {
        stack_bytes = std::strtoul(argv[3], nullptr, 10) * 1024;
        return run_child(parse_scenario(argv[2]));
    }
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s overflow|silent|exit:N <scenario> <stack KiB>\n", argv[0]);
        return 2;
    }
    return run_parent(argv[1], argv[2], argv[3]);
}
