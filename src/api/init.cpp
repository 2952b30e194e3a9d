// loom::init (include/loom/init.hpp): the command line's --loom:* options, the pool,
// and the program's entry point as a loom task.
#include "loom/init.hpp"

#include <cstdio>

#include "command_line.hpp"
#include "loom/async.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/runtime.hpp"

namespace loom {

namespace {

void print_messages(const detail::command_line& cl) {
    for (const std::string& m : cl.messages) std::fprintf(stderr, "%s\n", m.c_str());
}

// A pool that ran before init (a static initialiser used loom) keeps its size.
void check_pool_size(const runtime& rt, unsigned asked) {
    if (rt.owns_pool() || asked == 0) return;
    const unsigned has = num_threads();
    if (has != asked) {
        std::fprintf(stderr,
                     "loom: warning: --loom:threads=%u not applied: the runtime was already running with %u "
                     "workers\n",
                     asked, has);
    }
}

}  // namespace

int init(int (*entry)(int, char**), int argc, char** argv) {
    detail::command_line cl = detail::parse_command_line(argc, argv);
    print_messages(cl);
    if (cl.help && cl.exit_code == 0) {
        std::fputs(detail::command_line_help(argc > 0 ? argv[0] : nullptr).c_str(), stdout);
        std::fflush(stdout);
    }
    if (cl.exit_code >= 0) return cl.exit_code;
    if (cl.print_counters) ext::enable_stats_report();
    runtime rt{cl.options};  // its destructor waits for everything the program left running
    check_pool_size(rt, cl.options.num_threads);
    // A task, not a call: entry's waits then park it instead of blocking a thread.
    return loom::async([entry, &cl] { return entry(cl.argc(), cl.argv()); }).get();
}

}  // namespace loom
