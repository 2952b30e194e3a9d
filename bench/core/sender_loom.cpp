// Sender chains against the same chains of loom futures, per hop (--style):
//   then:         just(v) | then(+1) | then(+1) ...: a then adaptor runs inline in the
//                 completing context (no task, no allocation: the chain is one
//                 operation state on the stack), started with connect/start
//   future_sync:  make_ready_future(v).then(launch::sync, +1).then(launch::sync, +1)
//                 ...: the futures' inline continuation (a shared state per hop)
//   hop:          schedule(pool) | continues_on(pool) | then(+1) | continues_on(pool)
//                 | then(+1) ...: every hop is a new task on the pool (a task record
//                 from the thread's cache; no other allocation)
//   loop:         schedule(pool) | then(+1), once per hop, each started from the
//                 completion of the one before (one sender type, its operation state
//                 re-made in place): a hop to a new task, without a chain's code per hop
//   future_then:  a promise's future .then(+1).then(+1) ...: every continuation is a
//                 new task (a task record and a shared state per hop), the promise set
//                 once the chain is built
// Chains are `segment` hops long (sender chains are types: their length is fixed at
// compile time) and are built, run and waited for inside the timed region, n / segment
// times, inside a loom task (so a chain starts on a worker, and the wait parks).
// Every style's +1 is the same non-inlined call. hops/s = hops / time;
// extra.best_ns_per_hop.
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "bench.hpp"
#include "loom/loom.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/sender.hpp"

namespace lb = loom_bench;
namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;

namespace {

constexpr int segment = 50;

// The work of one hop: a call the optimiser cannot fold away, in every style alike (else a
// chain of inline thens folds into one addition).
[[gnu::noinline]] long add_one(long v) noexcept {
  lb::do_not_optimize(v);
  return v + 1;
}

struct inc {
  long operator()(long v) const noexcept { return add_one(v); }
};

template <int K, class S>
auto then_chain(S s) {
  if constexpr (K == 0) {
    return s;
  } else {
    return then_chain<K - 1>(std::move(s) | ex::then(inc{}));
  }
}

template <int K, class S>
auto hop_chain(S s, ex::pool_scheduler sch) {
  if constexpr (K == 0) {
    return s;
  } else {
    return hop_chain<K - 1>(std::move(s) | ex::continues_on(sch) | ex::then(inc{}), sch);
  }
}

// Keeps the value of a chain that completes inside start().
struct value_receiver {
  using receiver_concept = ex::receiver_t;
  long* out;
  void set_value(long v) && noexcept { *out = v; }
  void set_error(std::exception_ptr) && noexcept { *out = -1; }
  void set_stopped() && noexcept { *out = -1; }
};

long sender_then(long v) {
  long out = -1;
  auto op = ex::connect(then_chain<segment>(ex::just(v)), value_receiver{&out});
  ex::start(op);
  return out;
}

long future_sync(long v) {
  loom::future<long> f = loom::make_ready_future(v);
  for (int i = 0; i < segment; ++i) f = f.then(loom::launch::sync, [](loom::future<long> x) { return add_one(x.get()); });
  return f.get();
}

long sender_hop(long v) {
  ex::pool_scheduler sch;
  auto [r] = tt::sync_wait(hop_chain<segment>(ex::schedule(sch) | ex::then([v] { return v; }), sch)).value();
  return r;
}

// loop: one `schedule(pool) | then(+1)` per hop, each connected and started by the
// completion of the one before (its operation state re-made in place), as a sender
// algorithm that repeats work does; one sender type, so one copy of the code.
struct relay;
struct relay_step {
  relay* r;
  long operator()() const noexcept;
};
struct relay_receiver {
  using receiver_concept = ex::receiver_t;
  relay* r;
  void set_value(long v) && noexcept;
  void set_error(std::exception_ptr) && noexcept {}
  void set_stopped() && noexcept {}
};
using step_op = ex::connect_result_t<decltype(ex::schedule(ex::pool_scheduler()) | ex::then(relay_step{})), relay_receiver>;

struct relay {
  long value = 0;
  long left = 0;
  loom::ext::wait_slot done;
  alignas(step_op) unsigned char buf[sizeof(step_op)];
  bool live = false;

  step_op* op() noexcept { return std::launder(reinterpret_cast<step_op*>(buf)); }
  // Called from the completion of the operation it replaces: allowed, as that operation
  // touches nothing of itself after completing its receiver.
  void next() noexcept {
    if (live) op()->~step_op();
    ::new (static_cast<void*>(buf))
        step_op(ex::connect(ex::schedule(ex::pool_scheduler()) | ex::then(relay_step{this}), relay_receiver{this}));
    live = true;
    ex::start(*op());
  }
  ~relay() {
    if (live) op()->~step_op();
  }
};

long relay_step::operator()() const noexcept { return add_one(r->value); }
void relay_receiver::set_value(long v) && noexcept {
  r->value = v;
  if (--r->left == 0) {
    r->done.notify();
  } else {
    r->next();
  }
}

long sender_loop(long v) {
  relay r;
  r.value = v;
  r.left = segment;
  r.next();
  r.done.wait();
  return r.value;
}

long future_then(long v) {
  loom::promise<long> p;
  loom::future<long> f = p.get_future();
  for (int i = 0; i < segment; ++i) f = f.then([](loom::future<long> x) { return add_one(x.get()); });
  p.set_value(v);
  return f.get();
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-sender", "sender chains against future.then, per hop");
  const long n = long(cli.integer("n", 100000, segment, 100000000, "hops (rounded down to whole chains)"));
  const std::string style =
      cli.choice("style", "hop", {"then", "future_sync", "hop", "loop", "future_then"}, "what one hop is");
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  const long chains = n / segment;
  long (*chain)(long) = style == "then"          ? sender_then
                        : style == "future_sync" ? future_sync
                        : style == "hop"         ? sender_hop
                        : style == "loop"        ? sender_loop
                                                 : future_then;
  long result = -1;
  auto body = [&] {
    result = loom::async([&] {
               long total = 0;
               for (long c = 0; c < chains; ++c) total += chain(c) - c;
               return total;
             }).get();
  };
  auto timing = lb::measure_checked(run, [&] { result = -1; }, body, [&] { return result == chains * segment; });
  const double hops = double(chains * segment);
  double best = 0;
  for (double t : timing.times) best = (best == 0 || t < best) ? t : best;
  return lb::report(cli, run, int(loom::num_threads()), timing.times, timing.verified,
                    lb::JsonObject().set("hops", hops),
                    lb::JsonObject().set("best_ns_per_hop", best * 1e9 / hops));
}
