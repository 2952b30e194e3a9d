// Worker placement and victim order on machines this one is not: each scenario loads
// a synthetic hwloc topology (HWLOC_SYNTHETIC, set here and the program executed again:
// hwloc reads it when libloom is loaded), on which loom computes bindings without
// applying them, and checks the exact place of every worker and the exact order in
// which each worker steals.
//
//   topology_scenarios <scenario>     exit 0 when everything matches, 1 otherwise
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "loom/ext/machine.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/runtime.hpp"

namespace {

using list = std::vector<unsigned>;

struct scenario {
    const char* name;
    const char* synthetic;  // hwloc's synthetic description
    const char* mapping;    // LOOM_MAPPING
    unsigned workers;
    unsigned cpus;                   // processors the machine has
    std::vector<list> places;        // per worker
    std::vector<list> victims;       // per worker (empty: not checked)
};

std::vector<scenario> scenarios() {
    return {
        // 2 sockets x 2 NUMA x 8 cores x 2 PUs, 8 workers: compact fills the first NUMA
        // domain core by core; everyone's victims are its NUMA domain, in index order
        // after it.
        {"two_sockets_compact", "pack:2 numa:2 core:8 pu:2", "compact", 8, 64,
         {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}},
         {{1, 2, 3, 4, 5, 6, 7}, {2, 3, 4, 5, 6, 7, 0}, {3, 4, 5, 6, 7, 0, 1}, {4, 5, 6, 7, 0, 1, 2},
          {5, 6, 7, 0, 1, 2, 3}, {6, 7, 0, 1, 2, 3, 4}, {7, 0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6}}},
        // The same machine numa-balanced: two workers per NUMA domain, numbered domain by
        // domain; victims: the same domain, then the same socket, then the other socket.
        {"two_sockets_numa_balanced", "pack:2 numa:2 core:8 pu:2", "numa-balanced", 8, 64,
         {{0, 1}, {2, 3}, {16, 17}, {18, 19}, {32, 33}, {34, 35}, {48, 49}, {50, 51}},
         {{1, 2, 3, 4, 5, 6, 7}, {0, 2, 3, 4, 5, 6, 7}, {3, 0, 1, 4, 5, 6, 7}, {2, 0, 1, 4, 5, 6, 7},
          {5, 6, 7, 0, 1, 2, 3}, {4, 6, 7, 0, 1, 2, 3}, {7, 4, 5, 0, 1, 2, 3}, {6, 4, 5, 0, 1, 2, 3}}},
        // 4 NUMA domains x 24 cores: 6 workers numa-balanced take 2, 2, 1, 1.
        {"four_numa_numa_balanced", "numa:4 core:24 pu:1", "numa-balanced", 6, 96,
         {{0}, {1}, {24}, {25}, {48}, {72}},
         {{1, 2, 3, 4, 5}, {0, 2, 3, 4, 5}, {3, 4, 5, 0, 1}, {2, 4, 5, 0, 1}, {5, 0, 1, 2, 3},
          {0, 1, 2, 3, 4}}},
        // 4 NUMA x 24 cores compact, 30 workers: the first domain, then 6 of the second.
        {"four_numa_compact", "numa:4 core:24 pu:1", "compact", 30, 96,
         [] {
             std::vector<list> p;
             for (unsigned w = 0; w < 30; ++w) p.push_back({w});
             return p;
         }(),
         {}},
        // One socket of 64 PUs (32 cores x 2): 4 workers get whole cores; 40 workers
        // (more than cores) get one PU each, both PUs of a core before the next.
        {"one_socket_cores", "pack:1 core:32 pu:2", "compact", 4, 64,
         {{0, 1}, {2, 3}, {4, 5}, {6, 7}},
         {{1, 2, 3}, {2, 3, 0}, {3, 0, 1}, {0, 1, 2}}},
        {"one_socket_pus", "pack:1 core:32 pu:2", "compact", 40, 64,
         [] {
             std::vector<list> p;
             for (unsigned w = 0; w < 40; ++w) p.push_back({w});
             return p;
         }(),
         {}},
    };
}

std::string text(const list& l) {
    std::string s = "{";
    for (std::size_t i = 0; i < l.size(); ++i) {
        if (i > 0) s.push_back(' ');
        s.append(std::to_string(l[i]));
    }
    s.push_back('}');
    return s;
}

int check(const scenario& sc) {
    int failures = 0;
    auto expect = [&](bool ok, const std::string& what) {
        if (!ok) {
            std::printf("FAILED %s: %s\n", sc.name, what.c_str());
            ++failures;
        }
    };
    expect(loom::ext::machine_is_simulated(), "the synthetic topology is not seen as simulated");
    expect(loom::ext::machine_cpus().size() == sc.cpus,
           "machine has " + std::to_string(loom::ext::machine_cpus().size()) + " processors");
    expect(loom::ext::worker_count() == sc.workers, "worker count " + std::to_string(loom::ext::worker_count()));
    for (unsigned w = 0; w < sc.workers && w < loom::ext::worker_count(); ++w) {
        const list place = loom::ext::worker_place(w);
        expect(place == sc.places[w], "worker " + std::to_string(w) + " place " + text(place) +
                                          ", expected " + text(sc.places[w]));
        if (sc.victims.empty()) continue;
        const list victims = loom::ext::worker_victims(w);
        expect(victims == sc.victims[w], "worker " + std::to_string(w) + " victims " + text(victims) +
                                             ", expected " + text(sc.victims[w]));
    }
    return failures;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <scenario>\n", argv[0]);
        return 2;
    }
    for (const scenario& sc : scenarios()) {
        if (std::strcmp(sc.name, argv[1]) != 0) continue;
        // hwloc reads HWLOC_SYNTHETIC when libloom is loaded (core/process_hwloc.cpp):
        // the scenario runs in a fresh image of this program with it set.
        if (const char* set = std::getenv("HWLOC_SYNTHETIC"); !set || std::strcmp(set, sc.synthetic) != 0) {
            setenv("HWLOC_SYNTHETIC", sc.synthetic, 1);
            execv("/proc/self/exe", argv);
            std::perror("execv /proc/self/exe");
            return 2;
        }
        // Before the pool exists: the mapping is read when it starts.
        setenv("LOOM_MAPPING", sc.mapping, 1);
        setenv("LOOM_PIN", "true", 1);
        setenv("LOOM_NUM_THREADS", std::to_string(sc.workers).c_str(), 1);
        loom::runtime rt;
        const int failures = check(sc);
        if (failures == 0) std::printf("%s: every place and victim order as expected\n", sc.name);
        return failures == 0 ? 0 : 1;
    }
    std::fprintf(stderr, "unknown scenario %s\n", argv[1]);
    return 2;
}
