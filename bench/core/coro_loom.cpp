// Coroutine overhead per hop on loom's C++ API (--style):
//   ready:       co_await make_ready_future(v) (no suspension; the future is made and
//                freed in the hop)
//   ready_get:   make_ready_future(v).get(), the same without a coroutine (baseline)
//   then_relay:  a posted task fulfils a promise; a .then continuation on its future
//                posts the next hop (two tasks and two shared states per hop)
//   await_relay: a posted task fulfils a promise; one coroutine co_awaits its future
//                and posts the next hop (two tasks, one shared state per hop)
//   then:        a chain of .then continuations on a promise, set once it is built
//   await:       the same chain as coroutines: each co_awaits the future of the one
//                before and co_returns it plus one (a frame and a shared state per hop,
//                as .then makes a task and a shared state)
//   pingpong:    two coroutines alternately fulfil promises the other one co_awaits
//   lazy:        a chain of lazy<T> coroutines, each co_awaiting the next, run by start()
// Chains are `segment` hops long and are built, fired and waited for inside the timed
// region, n / segment times, for `then` and `await` alike. Segments keep the number of
// live objects within the thread's caches, as in a program whose chains are short; a
// chain of 10^5 live hops measures the heap instead.
// hops/s = hops / time (pingpong: 2 n hand-offs); extra.best_ns_per_hop.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "loom/loom.hpp"

namespace lb = loom_bench;

namespace {

loom::future<long> sum_ready(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += co_await loom::make_ready_future(1L);
  co_return sum;
}

long sum_ready_get(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += loom::make_ready_future(1L).get();
  return sum;
}

constexpr long segment = 100;

struct relay {
  long n;
  loom::promise<long> done;
};

void then_hop(relay& r, long v) {
  if (v == r.n) {
    r.done.set_value(v);
    return;
  }
  loom::promise<long> p;
  auto f = p.get_future();
  loom::post([p = std::move(p), v]() mutable { p.set_value(v + 1); });
  f.then([&r](loom::future<long> x) { then_hop(r, x.get()); });
}

long then_relay(long n) {
  relay r{n, {}};
  auto f = r.done.get_future();
  then_hop(r, 0);
  return f.get();
}

loom::future<long> await_relay(long n) {
  long v = 0;
  while (v < n) {
    loom::promise<long> p;
    auto f = p.get_future();
    loom::post([p = std::move(p), v]() mutable { p.set_value(v + 1); });
    v = co_await std::move(f);
  }
  co_return v;
}

loom::future<long> plus_one(loom::future<long> prev) { co_return co_await std::move(prev) + 1; }

long then_chain(long n) {
  loom::promise<long> p;
  loom::future<long> f = p.get_future();
  for (long i = 0; i < n; ++i) f = f.then([](loom::future<long> x) { return x.get() + 1; });
  p.set_value(0);
  return f.get();
}

long await_chain(long n) {
  loom::promise<long> p;
  loom::future<long> f = p.get_future();
  for (long i = 0; i < n; ++i) f = plus_one(std::move(f));
  p.set_value(0);
  return f.get();
}

struct pingpong_state {
  std::vector<loom::promise<long>> ping, pong;
  std::vector<loom::future<long>> ping_f, pong_f;
  explicit pingpong_state(long n) : ping(std::size_t(n)), pong(std::size_t(n)) {
    for (long i = 0; i < n; ++i) {
      ping_f.push_back(ping[std::size_t(i)].get_future());
      pong_f.push_back(pong[std::size_t(i)].get_future());
    }
  }
};

loom::future<long> pinger(pingpong_state& s) {
  long v = 0;
  for (std::size_t i = 0; i < s.ping.size(); ++i) {
    s.ping[i].set_value(v);
    v = co_await std::move(s.pong_f[i]) + 1;
  }
  co_return v;
}

loom::future<void> ponger(pingpong_state& s) {
  for (std::size_t i = 0; i < s.pong.size(); ++i) s.pong[i].set_value(co_await std::move(s.ping_f[i]) + 1);
}

loom::lazy<long> lazy_chain(long n) {
  if (n == 0) co_return 0;
  co_return 1 + co_await lazy_chain(n - 1);
}

}  // namespace

// n hops as chains of `segment` hops (the last one shorter), each built by `chain`.
template <class Chain>
long in_segments(long n, Chain chain) {
  long total = 0;
  for (long done = 0; done < n; done += segment) total += chain(done + segment <= n ? segment : n - done);
  return total;
}

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-coro", "coroutine co_await overhead per hop");
  const long n = long(cli.integer("n", 100000, 1, 100000000, "hops"));
  const std::string style = cli.choice("style", "await", {"ready", "ready_get", "then_relay", "await_relay", "then", "await", "pingpong", "lazy"},
                                       "what one hop is");
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  std::unique_ptr<pingpong_state> pp;
  long result = -1;
  const long expected = style == "pingpong" ? 2 * n : n;
  auto prepare = [&] {
    result = -1;
    if (style == "pingpong") pp = std::make_unique<pingpong_state>(n);
  };
  // Every style runs inside a task, so that the first hop starts on a worker.
  auto body = [&] {
    result = loom::async([&]() -> long {
               if (style == "ready") return sum_ready(n).get();
               if (style == "ready_get") return sum_ready_get(n);
               if (style == "then_relay") return then_relay(n);
               if (style == "await_relay") return await_relay(n).get();
               if (style == "then") return in_segments(n, then_chain);
               if (style == "await") return in_segments(n, await_chain);
               if (style == "pingpong") {
                 auto a = pinger(*pp);
                 auto b = loom::async([&] { ponger(*pp).get(); });
                 b.get();
                 return a.get();
               }
               return in_segments(n, [](long k) { return loom::start(lazy_chain(k)).get(); });
             }).get();
  };
  auto timing = lb::measure_checked(run, prepare, body, [&] { return result == expected; });
  const double hops = double(expected);
  double best = 0;
  for (double t : timing.times) best = (best == 0 || t < best) ? t : best;
  return lb::report(cli, run, int(loom::num_threads()), timing.times, timing.verified,
                    lb::JsonObject().set("hops", hops),
                    lb::JsonObject().set("best_ns_per_hop", best * 1e9 / hops));
}
