// A program that keeps its own main and calls loom::init: loom_main's result comes
// back to main, which goes on afterwards (the pool init started is shut down by then).
#include <cstdio>

#include "loom/ext/scheduler.hpp"
#include "loom/init.hpp"
#include "loom/runtime.hpp"

int loom_main(int argc, char** /*argv*/) {
    std::printf("loom_main: argc=%d os_threads=%zu\n", argc, loom::get_os_thread_count());
    return 5;
}

int main(int argc, char** argv) {
    const int rc = loom::init(argc, argv);
    std::printf("main: init returned %d, pool running=%d\n", rc, loom::ext::running() ? 1 : 0);
    return rc == 5 ? 0 : 1;
}
