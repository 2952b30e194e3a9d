// LOOM_TRACE contents: a workload of spawns (task_group, async) and dependences
// (dataflow, .then) runs in a fresh image of this program with LOOM_TRACE set (the
// variable is read when libloom loads); the test reads the file back and checks the
// flow arrows (both ends present; the start inside the spawner's or predecessor's
// slice, the end inside the spawned or successor task's slice, by time and by track),
// the queue-length counters, and the per-rank file name.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "json_reader.hpp"
#include "loom/async.hpp"
#include "loom/dataflow.hpp"
#include "loom/ext/trace.hpp"
#include "loom/future.hpp"
#include "loom/task_group.hpp"

namespace {

using loom::test::json;

constexpr int children = 16;
constexpr int successors = 8;

// ---- the traced workload (the child image)

void work() {
    volatile int sink = 0;
    for (int i = 0; i < 20000; ++i) sink = sink + i;
}

void workload() {
    loom::async([] {
        loom::ext::trace_name("spawner");
        loom::task_group g;
        for (int i = 0; i < children; ++i) {
            g.spawn([] {
                loom::ext::trace_name("child");
                work();
            });
        }
        std::vector<loom::future<void>> spawned;
        for (int i = 0; i < children; ++i) {
            spawned.push_back(loom::async([] {
                loom::ext::trace_name("child");
                work();
            }));
        }
        // Successors exist before their predecessors start, so each is released from
        // inside its predecessor's slice.
        std::vector<loom::future<int>> released;
        std::vector<loom::promise<int>> inputs(2 * successors);
        for (int i = 0; i < successors; ++i) {
            released.push_back(loom::dataflow(
                [](loom::future<int> a) {
                    loom::ext::trace_name("successor");
                    return a.get() + 1;
                },
                inputs[2 * i].get_future()));
            released.push_back(inputs[2 * i + 1].get_future().then([](loom::future<int> a) {
                loom::ext::trace_name("successor");
                return a.get() + 1;
            }));
        }
        for (auto& p : inputs) {
            loom::post([&p] {
                loom::ext::trace_name("predecessor");
                work();
                p.set_value(1);
            });
        }
        g.wait();
        for (auto& f : spawned) f.get();
        for (auto& f : released) f.get();
    }).get();
}

// ---- the file's events, per track, in file order

struct slice {
    std::string name;
    double begin, end;
    std::size_t first, last;  // positions of its B and E in the track's event list
};

struct track {
    std::vector<const json*> events;
    std::vector<slice> slices;
};

struct flow_end {
    int tid = -1;
    std::size_t pos = 0;
    double ts = 0;
};

struct parsed {
    json doc;
    std::map<int, track> tracks;
    std::map<long long, flow_end> starts, ends;
    std::vector<const json*> counters;
};

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void index_track(track& t) {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        const std::string& ph = t.events[i]->at("ph").text;
        if (ph == "B") {
            open.push_back(i);
        } else if (ph == "E") {
            ASSERT_FALSE(open.empty()) << "an end without a begin";
            const json& b = *t.events[open.back()];
            t.slices.push_back({b.at("name").text, b.at("ts").number, t.events[i]->at("ts").number, open.back(), i});
            open.pop_back();
        }
    }
    EXPECT_TRUE(open.empty()) << "slices left open";
}

void parse(const std::string& path, parsed& out) {
    const std::string text = read_file(path);
    ASSERT_FALSE(text.empty()) << path << " is missing or empty";
    out.doc = loom::test::json_reader(text).document();
    for (const json& e : out.doc.at("traceEvents").items) {
        const std::string& ph = e.at("ph").text;
        if (ph == "M" || ph == "b" || ph == "e") continue;
        const int tid = static_cast<int>(e.at("tid").number);
        track& t = out.tracks[tid];
        const std::size_t pos = t.events.size();
        t.events.push_back(&e);
        if (ph == "s" || ph == "f") {
            const auto id = static_cast<long long>(e.at("id").number);
            auto& side = ph == "s" ? out.starts : out.ends;
            EXPECT_EQ(side.count(id), 0u) << "arrow " << id << " has two " << ph << " events";
            side[id] = {tid, pos, e.at("ts").number};
            if (ph == "f") {
                EXPECT_EQ(e.at("bp").text, "e") << "an arrow's end binds to its enclosing slice";
            }
        }
        if (ph == "C") out.counters.push_back(&e);
    }
    for (auto& [tid, t] : out.tracks) index_track(t);
}

// The innermost slice of the track that holds the event at `pos` (by file order; its
// time lies within the slice's too).
const slice* holder(const parsed& p, const flow_end& at) {
    const track& t = p.tracks.at(at.tid);
    const slice* best = nullptr;
    for (const slice& s : t.slices) {
        if (s.first < at.pos && at.pos < s.last && (!best || s.first > best->first)) best = &s;
    }
    if (best) {
        EXPECT_LE(best->begin, at.ts);
        EXPECT_LE(at.ts, best->end);
    }
    return best;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string scratch_path(const char* name) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/loom_trace_" + std::to_string(getpid()) + "_" + name;
}

// Runs this program again as `--trace-child` with `env` added; returns its exit status.
int run_child(const std::vector<std::string>& env) {
    const pid_t pid = fork();
    if (pid == 0) {
        for (const std::string& kv : env) putenv(strdup(kv.c_str()));
        execl("/proc/self/exe", "trace_test", "--trace-child", static_cast<char*>(nullptr));
        std::perror("execl /proc/self/exe");
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

TEST(Trace, FlowsJoinSpawnerAndPredecessorToTheirTasks) {
    const std::string path = scratch_path("flows.json");
    std::remove(path.c_str());
    ASSERT_EQ(run_child({"LOOM_TRACE=" + path, "LOOM_NUM_THREADS=2"}), 0);
    parsed p;
    parse(path, p);
    std::remove(path.c_str());

    int spawn_arrows = 0, release_arrows = 0;
    for (const auto& [id, end] : p.ends) {
        ASSERT_TRUE(p.starts.count(id)) << "arrow " << id << " has an end but no start";
        const slice* to = holder(p, end);
        const slice* from = holder(p, p.starts.at(id));
        ASSERT_NE(to, nullptr) << "arrow " << id << " ends outside any slice";
        ASSERT_NE(from, nullptr) << "arrow " << id << " starts outside any slice";
        if (to->name == "child") {
            EXPECT_EQ(from->name, "spawner") << "arrow " << id;
            ++spawn_arrows;
        } else if (to->name == "successor") {
            EXPECT_TRUE(starts_with(from->name, "predecessor")) << "arrow " << id << " from " << from->name;
            ++release_arrows;
        }
    }
    for (const auto& [id, start] : p.starts) EXPECT_TRUE(p.ends.count(id)) << "arrow " << id << " has no end";
    EXPECT_EQ(spawn_arrows, 2 * children);
    EXPECT_EQ(release_arrows, 2 * successors);

    std::map<std::string, int> counter_names;
    for (const json* c : p.counters) {
        const double v = c->at("args").at("tasks").number;
        EXPECT_GE(v, 0) << c->at("name").text;
        ++counter_names[starts_with(c->at("name").text, "deque (worker ") ? "deque" : c->at("name").text];
    }
    EXPECT_GT(counter_names["deque"], 0);
    EXPECT_GT(counter_names["injection queue"], 0);
    EXPECT_GT(counter_names["priority queue"], 0);

    const json& other = p.doc.at("otherData");
    EXPECT_EQ(other.at("loom_rank").number, -1);
    EXPECT_GT(other.at("loom_realtime_epoch_ns").number, 1e18);
}

TEST(Trace, OneFilePerRank) {
    const std::string pattern = scratch_path("r%r.json");
    const std::string by_pattern = scratch_path("r3.json");
    std::remove(by_pattern.c_str());
    ASSERT_EQ(run_child({"LOOM_TRACE=" + pattern, "LOOM_NUM_THREADS=1", "PMI_RANK=3"}), 0);
    parsed p;
    parse(by_pattern, p);
    EXPECT_EQ(p.doc.at("otherData").at("loom_rank").number, 3);
    std::remove(by_pattern.c_str());

    // Under a launcher, without %r: ".rankN" goes before ".json".
    const std::string plain = scratch_path("plain.json");
    const std::string suffixed = scratch_path("plain.rank1.json");
    std::remove(suffixed.c_str());
    ASSERT_EQ(run_child({"LOOM_TRACE=" + plain, "LOOM_NUM_THREADS=1", "OMPI_COMM_WORLD_RANK=1"}), 0);
    EXPECT_FALSE(read_file(suffixed).empty()) << suffixed << " not written";
    EXPECT_TRUE(read_file(plain).empty()) << "the rank-less name was written";
    std::remove(suffixed.c_str());
}

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--trace-child") == 0) {
        workload();
        return 0;
    }
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
