// Future ping-pong latency: two tasks alternately fulfil promises; each round trip
// is ping (A -> B) then pong (B -> A), each a promise set while the other task waits
// on its future (suspended). Reports the time of N round trips.
#include <cstdint>
#include <vector>

#include "bench.hpp"
#include "loom/loom.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-pingpong", "future ping-pong between two loom tasks");
  const long n = long(cli.integer("n", 100000, 1, 100000000, "round trips"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  std::vector<loom::promise<long>> ping, pong;
  std::vector<loom::future<long>> ping_f, pong_f;
  long last = -1;
  auto prepare = [&] {
    ping = std::vector<loom::promise<long>>(std::size_t(n));
    pong = std::vector<loom::promise<long>>(std::size_t(n));
    ping_f.clear();
    pong_f.clear();
    for (long i = 0; i < n; ++i) {
      ping_f.push_back(ping[std::size_t(i)].get_future());
      pong_f.push_back(pong[std::size_t(i)].get_future());
    }
    last = -1;
  };
  auto body = [&] {
    auto a = loom::async([&] {
      long v = 0;
      for (long i = 0; i < n; ++i) {
        ping[std::size_t(i)].set_value(v);
        v = pong_f[std::size_t(i)].get() + 1;
      }
      return v;
    });
    auto b = loom::async([&] {
      for (long i = 0; i < n; ++i) pong[std::size_t(i)].set_value(ping_f[std::size_t(i)].get() + 1);
    });
    b.get();
    last = a.get();
  };
  auto timing = lb::measure_checked(run, prepare, body, [&] { return last == 2 * n; });
  double best = 0;
  for (double t : timing.times) best = (best == 0 || t < best) ? t : best;
  return lb::report(cli, run, int(loom::num_threads()), timing.times, timing.verified,
                    lb::JsonObject().set("round_trips", n),
                    lb::JsonObject().set("best_ns_per_round_trip", best * 1e9 / double(n)));
}
