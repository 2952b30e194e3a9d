// Running a program's entry point on loom with options from the command line, for
// programs that keep their own main (HPX's hpx_init.hpp shape):
//
//     #include <loom/init.hpp>
//     int loom_main(int argc, char** argv) { ... return 0; }   // runs as a loom task
//     int main(int argc, char** argv) { return loom::init(argc, argv); }
//
// <loom/loom_main.hpp> supplies that main. Options (docs/tutorial.md, "Starting
// the runtime"): --loom:threads=N (or --loom:threads N), --loom:print-counters,
// --loom:help. They are removed from the arguments; the rest reaches the entry point
// unchanged, argv[0] first.
#pragma once

#include "loom/ext/export.hpp"

/// The program's entry point on loom, defined by the program when it uses
/// loom::init(argc, argv) or <loom/loom_main.hpp>.
int loom_main(int argc, char** argv);

namespace loom {

/// Reads and removes the --loom:* options from argv, starts the pool with them, runs
/// entry(argc', argv') as a loom task (so it can wait on futures and latches without
/// holding a worker) and returns its result, meant as the process's exit status. The
/// pool started here is shut down before init returns, after every task the program
/// left behind has finished. If a pool already runs, it is used as it is (a
/// --loom:threads that differs from its size is reported). An exception that leaves
/// entry is rethrown here.
/// Without running entry: --loom:help prints the options on stdout and returns 0; an
/// unknown --loom: option prints one line on stderr and returns 2. A bad value (say
/// --loom:threads=lots) prints one warning and the default is used.
LOOM_EXPORT int init(int (*entry)(int, char**), int argc, char** argv);

/// init(loom_main, argc, argv).
inline int init(int argc, char** argv) { return init(&::loom_main, argc, argv); }

}  // namespace loom
