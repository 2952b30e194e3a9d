// The --loom:* options of loom::init (include/loom/init.hpp): read from the command
// line, removed from it, everything else handed on unchanged. Private: loom::init is
// the public face; tests/api compiles this file into its unit test.
#pragma once

#include <string>
#include <vector>

#include "loom/runtime.hpp"

namespace loom::detail {

struct command_line {
    runtime_options options;             // num_threads stays 0 unless --loom:threads
    bool print_counters = false;         // --loom:print-counters
    bool help = false;                   // --loom:help
    int exit_code = -1;                  // >= 0: do not run the program, exit with this
    std::vector<std::string> messages;   // warnings and errors, one line each
    std::vector<char*> args;             // argv[0] and the other arguments, null-terminated

    [[nodiscard]] int argc() const noexcept { return static_cast<int>(args.size()) - 1; }
    [[nodiscard]] char** argv() noexcept { return args.data(); }
};

/// Splits argv into loom's options and the program's arguments. argv's strings are
/// not copied: args points into argv. A bare `--` ends loom's options; it and what
/// follows are handed on. Bad values get a message and the default; an unknown
/// --loom: option sets exit_code 2; --loom:help sets exit_code 0.
command_line parse_command_line(int argc, char** argv);

/// The text --loom:help prints.
std::string command_line_help(const char* program);

}  // namespace loom::detail
