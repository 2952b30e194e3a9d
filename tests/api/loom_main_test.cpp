// loom_main.hpp and loom::init, end to end: runs loom_main_program / loom_init_program
// (paths from CMake) with chosen arguments and environment, and checks what they print
// and how they exit.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct outcome {
    int status = -1;  // exit status, or -1 when the program did not exit normally
    std::string out, err;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The environment of this process without the variables that size or report the
// pool, plus `extra`.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string v = *e;
        if (v.rfind("LOOM_NUM_THREADS=", 0) == 0 || v.rfind("OMP_NUM_THREADS=", 0) == 0 ||
            v.rfind("LOOM_STATS=", 0) == 0)
            continue;
        env.push_back(v);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> p;
    for (auto& s : strings) p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

outcome run(const char* program, std::vector<std::string> args,
            const std::vector<std::string>& extra_env = {"LOOM_NUM_THREADS=2"}) {
    char dir_template[] = "/tmp/loom_main_test.XXXXXX";
    const char* dir = mkdtemp(dir_template);
    EXPECT_NE(dir, nullptr);
    const std::string out_path = std::string(dir) + "/out", err_path = std::string(dir) + "/err";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    args.insert(args.begin(), program);
    std::vector<std::string> env = child_environment(extra_env);
    auto argv = pointers(args);
    auto envp = pointers(env);
    pid_t pid = -1;
    outcome o;
    if (posix_spawn(&pid, program, &actions, nullptr, argv.data(), envp.data()) == 0) {
        int ws = 0;
        waitpid(pid, &ws, 0);
        o.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    }
    posix_spawn_file_actions_destroy(&actions);
    o.out = slurp(out_path);
    o.err = slurp(err_path);
    unlink(out_path.c_str());
    unlink(err_path.c_str());
    rmdir(dir);
    return o;
}

outcome run_main(std::vector<std::string> args, const std::vector<std::string>& env = {"LOOM_NUM_THREADS=2"}) {
    return run(LOOM_MAIN_PROGRAM, std::move(args), env);
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

TEST(LoomMain, ExitStatusIsLoomMainsResult) {
    EXPECT_EQ(run_main({}).status, 0);
    EXPECT_EQ(run_main({"--exit=7"}).status, 7);
    EXPECT_EQ(run_main({"--loom:threads=1", "--exit=3"}).status, 3);
}

TEST(LoomMain, RunsAsATaskThatCanWait) {
    for (const char* threads : {"--loom:threads=1", "--loom:threads=2"}) {
        const outcome o = run_main({threads});
        ASSERT_EQ(o.status, 0) << o.err;
        EXPECT_TRUE(has(o.out, "in_pool=1\n")) << o.out;
        EXPECT_TRUE(has(o.out, "waited=1\n")) << o.out;
        EXPECT_TRUE(has(o.out, "outside_is_minus_one=1\n")) << o.out;
        EXPECT_TRUE(o.err.empty()) << o.err;
    }
}

TEST(LoomMain, ThreadsOptionSizesThePool) {
    EXPECT_TRUE(has(run_main({"--loom:threads=3"}).out, "os_threads=3\n"));
    EXPECT_TRUE(has(run_main({"--loom:threads", "1"}).out, "os_threads=1\n"));
    // The command line wins over the environment; without it the environment counts.
    EXPECT_TRUE(has(run_main({"--loom:threads=3"}, {"LOOM_NUM_THREADS=2"}).out, "os_threads=3\n"));
    EXPECT_TRUE(has(run_main({}, {"LOOM_NUM_THREADS=2"}).out, "os_threads=2\n"));
}

TEST(LoomMain, OtherArgumentsArePassedOnUnchanged) {
    const outcome o =
        run_main({"input.txt", "--loom:threads=2", "-v", "--loom:print-counters", "--level=3", "--", "--loom:threads=9"});
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(has(o.out, "argc=6\n")) << o.out;
    EXPECT_TRUE(has(o.out, "args=input.txt|-v|--level=3|--|--loom:threads=9\n")) << o.out;
    EXPECT_TRUE(has(o.out, "argv_terminated=1\n")) << o.out;
    EXPECT_TRUE(has(o.out, "os_threads=2\n")) << o.out;
}

TEST(LoomMain, BadThreadCountWarnsAndUsesTheDefault) {
    for (const char* bad : {"--loom:threads=lots", "--loom:threads=0", "--loom:threads=5000", "--loom:threads="}) {
        const outcome o = run_main({bad}, {"LOOM_NUM_THREADS=2"});
        EXPECT_EQ(o.status, 0) << bad;
        EXPECT_TRUE(has(o.err, "loom: warning: --loom:threads='")) << bad << ": " << o.err;
        EXPECT_TRUE(has(o.out, "os_threads=2\n")) << bad << ": " << o.out;
    }
    const outcome missing = run_main({"--loom:threads"});
    EXPECT_EQ(missing.status, 0);
    EXPECT_TRUE(has(missing.err, "--loom:threads needs a value")) << missing.err;
}

TEST(LoomMain, UnknownOptionStopsWithStatusTwo) {
    const outcome o = run_main({"--loom:thread=2", "--exit=0"});
    EXPECT_EQ(o.status, 2);
    EXPECT_TRUE(has(o.err, "unknown option '--loom:thread=2'")) << o.err;
    EXPECT_FALSE(has(o.out, "argc=")) << "loom_main must not run";
}

TEST(LoomMain, HelpPrintsTheOptionsAndExits) {
    const outcome o = run_main({"--loom:help", "--exit=4"});
    EXPECT_EQ(o.status, 0);
    EXPECT_TRUE(has(o.out, "--loom:threads=N")) << o.out;
    EXPECT_TRUE(has(o.out, "--loom:print-counters")) << o.out;
    EXPECT_FALSE(has(o.out, "argc=")) << "loom_main must not run";
}

TEST(LoomMain, PrintCountersPrintsTheSummaryAtExit) {
    const outcome on = run_main({"--loom:print-counters", "--loom:threads=3"});
    EXPECT_EQ(on.status, 0);
    EXPECT_TRUE(has(on.err, "loom: ---- summary (LOOM_STATS) ----")) << on.err;
    EXPECT_TRUE(has(on.err, "loom: workers            3\n")) << on.err;
    const outcome off = run_main({"--loom:threads=3"});
    EXPECT_FALSE(has(off.err, "summary")) << off.err;
}

TEST(LoomMain, ExceptionLeavingLoomMainEndsTheProgramAsFromMain) {
    const outcome o = run_main({"--throw"});
    EXPECT_NE(o.status, 0);  // std::terminate: not a normal exit
    EXPECT_TRUE(has(o.err, "thrown on request")) << o.err;
}

TEST(LoomInit, OwnMainGetsTheResultAndGoesOn) {
    const outcome o = run(LOOM_INIT_PROGRAM, {"--loom:threads=2", "x"});
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_TRUE(has(o.out, "loom_main: argc=2 os_threads=2\n")) << o.out;
    EXPECT_TRUE(has(o.out, "main: init returned 5, pool running=0\n")) << o.out;
}

}  // namespace
