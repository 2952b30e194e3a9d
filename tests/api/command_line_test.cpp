// The --loom:* option parser of loom::init (src/api/command_line.cpp, compiled into
// this test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

// argv over copies of `args` (the parser keeps pointers into argv).
struct argv_of {
    explicit argv_of(std::vector<std::string> a) : strings(std::move(a)) {
        for (auto& s : strings) pointers.push_back(s.data());
        pointers.push_back(nullptr);
    }
    int argc() const { return static_cast<int>(strings.size()); }
    char** argv() { return pointers.data(); }
    std::vector<std::string> strings;
    std::vector<char*> pointers;
};

loom::detail::command_line parse(argv_of& a) { return loom::detail::parse_command_line(a.argc(), a.argv()); }

std::vector<std::string> handed_on(const loom::detail::command_line& cl) {
    std::vector<std::string> out;
    for (int i = 0; i < cl.argc(); ++i) out.emplace_back(cl.args[static_cast<std::size_t>(i)]);
    return out;
}

TEST(CommandLine, ThreadsWithEqualsOrSeparateValue) {
    argv_of a({"prog", "--loom:threads=3", "x"});
    auto cl = parse(a);
    EXPECT_EQ(cl.options.num_threads, 3u);
    EXPECT_EQ(handed_on(cl), (std::vector<std::string>{"prog", "x"}));
    EXPECT_TRUE(cl.messages.empty());
    EXPECT_EQ(cl.exit_code, -1);

    argv_of b({"prog", "--loom:threads", "4096", "y"});
    cl = parse(b);
    EXPECT_EQ(cl.options.num_threads, 4096u);
    EXPECT_EQ(handed_on(cl), (std::vector<std::string>{"prog", "y"}));
}

TEST(CommandLine, LastThreadsWinsAndAllMeansTheDefault) {
    argv_of a({"prog", "--loom:threads=2", "--loom:threads=5"});
    EXPECT_EQ(parse(a).options.num_threads, 5u);
    argv_of b({"prog", "--loom:threads=2", "--loom:threads=all"});
    auto cl = parse(b);
    EXPECT_EQ(cl.options.num_threads, 0u);
    EXPECT_TRUE(cl.messages.empty());
}

TEST(CommandLine, OtherArgumentsKeepTheirOrderAndPointers) {
    argv_of a({"prog", "-v", "--loom:print-counters", "in.txt", "--loom-not-ours", "--x=1"});
    auto cl = parse(a);
    EXPECT_TRUE(cl.print_counters);
    ASSERT_EQ(cl.argc(), 5);
    EXPECT_EQ(cl.args[0], a.pointers[0]);
    EXPECT_EQ(cl.args[1], a.pointers[1]);
    EXPECT_EQ(cl.args[2], a.pointers[3]);
    EXPECT_EQ(cl.args[3], a.pointers[4]);
    EXPECT_EQ(cl.args[4], a.pointers[5]);
    EXPECT_EQ(cl.args[5], nullptr);
}

TEST(CommandLine, DoubleDashEndsLoomsOptions) {
    argv_of a({"prog", "--loom:threads=2", "--", "--loom:threads=7", "--loom:bogus"});
    auto cl = parse(a);
    EXPECT_EQ(cl.options.num_threads, 2u);
    EXPECT_EQ(cl.exit_code, -1);
    EXPECT_EQ(handed_on(cl), (std::vector<std::string>{"prog", "--", "--loom:threads=7", "--loom:bogus"}));
}

TEST(CommandLine, BadThreadCountsWarnAndKeepTheDefault) {
    for (const char* bad : {"0", "-1", "4097", "99999", "abc", "2x", " 2", ""}) {
        argv_of a({"prog", std::string("--loom:threads=") + bad});
        auto cl = parse(a);
        EXPECT_EQ(cl.options.num_threads, 0u) << bad;
        ASSERT_EQ(cl.messages.size(), 1u) << bad;
        EXPECT_EQ(cl.messages[0].rfind(std::string("loom: warning: --loom:threads='") + bad + "'", 0), 0u)
            << cl.messages[0];
        EXPECT_EQ(cl.exit_code, -1);
        EXPECT_EQ(cl.argc(), 1);
    }
}

TEST(CommandLine, ThreadsWithoutValue) {
    argv_of a({"prog", "--loom:threads"});
    auto cl = parse(a);
    EXPECT_EQ(cl.options.num_threads, 0u);
    ASSERT_EQ(cl.messages.size(), 1u);
    EXPECT_NE(cl.messages[0].find("needs a value"), std::string::npos);
    // An option after it is not taken as its value.
    argv_of b({"prog", "--loom:threads", "--verbose"});
    cl = parse(b);
    EXPECT_EQ(cl.options.num_threads, 0u);
    EXPECT_EQ(handed_on(cl), (std::vector<std::string>{"prog", "--verbose"}));
}

TEST(CommandLine, UnknownOptionMeansExitTwo) {
    argv_of a({"prog", "--loom:thread=2", "--loom:", "x", "--loom:help"});
    auto cl = parse(a);
    EXPECT_EQ(cl.exit_code, 2);
    ASSERT_EQ(cl.messages.size(), 2u);
    EXPECT_NE(cl.messages[0].find("unknown option '--loom:thread=2'"), std::string::npos);
    EXPECT_NE(cl.messages[1].find("unknown option '--loom:'"), std::string::npos);
}

TEST(CommandLine, HelpMeansExitZero) {
    argv_of a({"prog", "--loom:help"});
    auto cl = parse(a);
    EXPECT_TRUE(cl.help);
    EXPECT_EQ(cl.exit_code, 0);
    const std::string text = loom::detail::command_line_help("prog");
    EXPECT_EQ(text.rfind("Usage: prog ", 0), 0u);
    EXPECT_NE(text.find("--loom:threads=N"), std::string::npos);
    EXPECT_NE(text.find("--loom:print-counters"), std::string::npos);
}

TEST(CommandLine, FlagWithValueWarns) {
    argv_of a({"prog", "--loom:print-counters=yes"});
    auto cl = parse(a);
    EXPECT_TRUE(cl.print_counters);
    ASSERT_EQ(cl.messages.size(), 1u);
    EXPECT_NE(cl.messages[0].find("takes no value"), std::string::npos);
}

TEST(CommandLine, NoArguments) {
    auto cl = loom::detail::parse_command_line(0, nullptr);
    EXPECT_EQ(cl.argc(), 0);
    ASSERT_EQ(cl.args.size(), 1u);
    EXPECT_EQ(cl.args[0], nullptr);
}

}  // namespace
