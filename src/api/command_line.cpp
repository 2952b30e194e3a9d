// --loom:* command-line options (command_line.hpp). Messages follow the environment
// variables' form (src/core/config.cpp): name the option and the value used instead.
#include "command_line.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

namespace loom::detail {

namespace {

constexpr std::string_view prefix = "--loom:";
constexpr unsigned long max_threads = 4096;  // the pool's slot count
constexpr const char* default_threads_text =
    "the default (LOOM_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs this process may use)";

struct option {
    std::string_view name;                   // after "--loom:", before '='
    std::optional<std::string_view> value;   // after '=', if there is one
};

option split_option(std::string_view arg) {
    arg.remove_prefix(prefix.size());
    const std::size_t eq = arg.find('=');
    if (eq == std::string_view::npos) return {arg, std::nullopt};
    return {arg.substr(0, eq), arg.substr(eq + 1)};
}

std::optional<unsigned> parse_thread_count(std::string_view text) {
    if (text.empty() || text.size() > 4 ||
        !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
        return std::nullopt;
    unsigned long n = 0;
    for (char c : text) n = n * 10 + static_cast<unsigned long>(c - '0');
    if (n < 1 || n > max_threads) return std::nullopt;
    return static_cast<unsigned>(n);
}

void set_threads(command_line& cl, std::string_view value) {
    if (value == "all") {
        cl.options.num_threads = 0;
        return;
    }
    if (auto n = parse_thread_count(value)) {
        cl.options.num_threads = *n;
        return;
    }
    cl.options.num_threads = 0;
    cl.messages.push_back("loom: warning: --loom:threads='" + std::string(value) +
                          "' is not a thread count between 1 and 4096 (or 'all'); using " +
                          default_threads_text);
}

// --loom:threads=N, or --loom:threads N (the next argument, unless it is an option).
void read_threads(command_line& cl, const option& opt, int& i, int argc, char** argv) {
    if (opt.value) {
        set_threads(cl, *opt.value);
    } else if (i + 1 < argc && argv[i + 1][0] != '-') {
        set_threads(cl, argv[++i]);
    } else {
        cl.messages.push_back(std::string("loom: warning: --loom:threads needs a value (--loom:threads=N); using ") +
                              default_threads_text);
    }
}

void read_flag(command_line& cl, const option& opt, bool& flag) {
    flag = true;
    if (opt.value) {
        cl.messages.push_back("loom: warning: --loom:" + std::string(opt.name) + " takes no value; ignoring '=" +
                              std::string(*opt.value) + "'");
    }
}

// Returns false for an option loom does not know.
bool read_option(command_line& cl, int& i, int argc, char** argv) {
    const option opt = split_option(argv[i]);
    if (opt.name == "threads") {
        read_threads(cl, opt, i, argc, argv);
    } else if (opt.name == "print-counters") {
        read_flag(cl, opt, cl.print_counters);
    } else if (opt.name == "help") {
        read_flag(cl, opt, cl.help);
    } else {
        cl.messages.push_back("loom: error: unknown option '" + std::string(argv[i]) +
                              "'; --loom:help lists loom's options");
        return false;
    }
    return true;
}

}  // namespace

command_line parse_command_line(int argc, char** argv) {
    command_line cl;
    bool unknown = false;
    if (argc > 0 && argv != nullptr) cl.args.push_back(argv[0]);
    int i = 1;
    for (; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;  // it and the rest go to the program untouched
        if (arg.substr(0, prefix.size()) == prefix) {
            unknown = !read_option(cl, i, argc, argv) || unknown;
        } else {
            cl.args.push_back(argv[i]);
        }
    }
    for (; i < argc; ++i) cl.args.push_back(argv[i]);
    cl.args.push_back(nullptr);
    if (unknown) {
        cl.exit_code = 2;
    } else if (cl.help) {
        cl.exit_code = 0;
    }
    return cl;
}

std::string command_line_help(const char* program) {
    std::string text = "Usage: ";
    text += (program != nullptr && *program != '\0') ? program : "program";
    text +=
        " [--loom:OPTION ...] [arguments]\n"
        "loom's options (removed before the program sees its arguments):\n"
        "  --loom:threads=N       run N workers, 1 to 4096 (also: --loom:threads N; 'all': the\n"
        "                         CPUs this process may use); default: LOOM_NUM_THREADS, else\n"
        "                         OMP_NUM_THREADS, else the CPUs this process may use\n"
        "  --loom:print-counters  print the runtime's counters on stderr at exit (as LOOM_STATS=1)\n"
        "  --loom:help            print this text and exit\n"
        "Arguments after a bare '--' are handed on as they are. An unknown --loom: option\n"
        "stops the program with exit status 2; a bad value is reported and the default used.\n";
    return text;
}

}  // namespace loom::detail
