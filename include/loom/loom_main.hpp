// Supplies main() for a program that defines loom_main (HPX's hpx_main.hpp shape):
//
//     #include <loom/loom_main.hpp>
//     int loom_main(int argc, char** argv) {   // runs as a loom task
//         auto f = loom::async([] { return 42; });
//         return f.get() == 42 ? 0 : 1;          // the process's exit status
//     }
//
// main reads --loom:threads=N, --loom:print-counters and --loom:help, removes them and
// hands the other arguments to loom_main (loom::init, <loom/init.hpp>). Include this
// header in ONE source file of the program, which must not define main itself; a
// program that keeps its own main calls loom::init(argc, argv) instead.
#pragma once

#include "loom/init.hpp"

int main(int argc, char** argv) { return loom::init(argc, argv); }
