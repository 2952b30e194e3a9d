// A program that defines loom_main and lets <loom/loom_main.hpp> supply main; driven
// by loom_main_test.cpp, which checks what it prints and its exit status.
//   --exit=N   loom_main returns N
//   --throw    loom_main throws (the exception leaves init, as from a plain main)
// Prints one "key=value" line per fact, then "args=" with the arguments it was handed.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "loom/async.hpp"
#include "loom/latch.hpp"
#include "loom/loom_main.hpp"
#include "loom/runtime.hpp"

int loom_main(int argc, char** argv) {
    int code = 0;
    std::string args;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--exit=", 0) == 0) code = std::atoi(a.c_str() + 7);
        if (a == "--throw") throw std::runtime_error("loom_main_program: thrown on request");
        args += (i > 1 ? "|" : "") + a;
    }
    std::printf("argc=%d\nargs=%s\nargv_terminated=%d\n", argc, args.c_str(), argv[argc] == nullptr ? 1 : 0);
    std::printf("os_threads=%zu\n", loom::get_os_thread_count());
    // loom_main is a task: it has a worker index, and a wait parks it, so the task it
    // posts runs even on a single worker.
    std::printf("in_pool=%d\n", loom::get_worker_thread_num() < loom::get_os_thread_count() ? 1 : 0);
    loom::latch done(1);
    loom::post([&] { done.count_down(); });
    done.wait();
    std::printf("waited=1\n");
    std::size_t outside = 0;
    std::thread([&] { outside = loom::get_worker_thread_num(); }).join();
    std::printf("outside_is_minus_one=%d\n", outside == static_cast<std::size_t>(-1) ? 1 : 0);
    std::fflush(stdout);
    return code;
}
