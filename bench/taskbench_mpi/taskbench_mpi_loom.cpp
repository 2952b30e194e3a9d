// Distributed Task Bench on loom: every rank runs its points as loom tasks ordered by
// dataflow, and the outputs that cross ranks travel through loom::mpi senders, so a
// rank computes whatever is ready while messages are in flight: no step barrier, no
// worker ever waits in MPI. A message's completion is an operation state the graph
// keeps per node (loom::mpi::as_sender connected to a receiver of the graph's): no
// future, no continuation record, no allocation per message.
//
// Nodes, per rank (id = t * width + point):
//   compute (t, x), x this rank's: runs the task, then sends its output to every rank
//     that reads it (MPI_Isend, as_sender), then releases its successors;
//   receive (t, y), y another rank's point some local task of row t+1 reads: posts
//     MPI_Irecv into slot y of row t once the slot is free, and releases its readers
//     when the request completes (as_sender: a high-priority task of its own, or at
//     once when the message was there).
// Edges (each counted once per pair, as in bench/taskbench/taskbench_loom.cpp):
//   read after write:  (t-1, y) -> (t, x) for every input y (a compute or a receive);
//   write after read:  every local reader (t-1, z) of slot x -> the next writer of the
//                      slot: the compute (t+1, x) if x is local, else the next receive
//                      into that slot (the first later one of the same parity: rows
//                      that need nothing from x have none), which thereby also waits
//                      for the previous receive on its tag;
//   write after write: (t-2, x) -> (t, x) when no local task of row t-1 reads it;
//   sends:             each send of (t-2, x) -> (t, x) (MPI reads the slot until the
//                      send completes).
// A node becomes ready when its counter of unfinished predecessors reaches zero; a
// finishing compute task runs one ready successor itself (no round trip through its
// deque). The edge lists are built once, before timing: the graph is the same in
// every repetition, as the MPI versions' exchange plans are. The timing loop itself
// runs as a loom task (see main).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <vector>

#include "distributed.hpp"
#include "loom/async.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/mpi.hpp"
#include "loom/runtime.hpp"
#include "loom/sender.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;
namespace dt = taskbench_mpi;
namespace ex = loom::execution::experimental;

namespace {

// Room for one operation state, reused from run to run: operation states do not
// move, so each start builds the next one in place (the previous one has completed).
template <class Op>
class OpSlot {
 public:
  OpSlot() = default;
  OpSlot(const OpSlot&) = delete;
  OpSlot& operator=(const OpSlot&) = delete;
  ~OpSlot() { reset(); }

  template <class Make>
  Op& emplace(Make make) {
    reset();
    Op* op = ::new (static_cast<void*>(raw_)) Op(make());
    live_ = true;
    return *op;
  }

 private:
  void reset() noexcept {
    if (live_) std::launder(reinterpret_cast<Op*>(raw_))->~Op();
    live_ = false;
  }
  alignas(Op) std::byte raw_[sizeof(Op)];
  bool live_ = false;
};

// What a completed request does in the graph: `Done` is the graph's handler for a
// receive or a send, `at` the node (receive) or send index.
template <class Graph, void (Graph::*Done)(long)>
struct Completion {
  using receiver_concept = ex::receiver_t;
  Graph* graph;
  long at;
  void set_value() && noexcept { (graph->*Done)(at); }
  void set_error(std::exception_ptr e) && noexcept {
    graph->note_error(e);
    (graph->*Done)(at);
  }
  void set_stopped() && noexcept {}
  [[nodiscard]] ex::empty_env get_env() const noexcept { return {}; }
};

class DistributedGraph {
 public:
  DistributedGraph(tb::GraphRun& run, const dt::Setup& s)
      : run_(run), g_(run.graph), L_(s.layout), n_(size_t(g_.steps) * size_t(g_.width)) {
    build(s.plan);
  }

  // Untimed: every counter back to its predecessor count.
  void reset() {
    for (size_t id = 0; id < n_; ++id) pending_[id].n.store(initial_[id], std::memory_order_relaxed);
    remaining_.store(finishing_, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    done_.reset();
  }

  // One run of the graph on this rank; returns when its tasks ran and its sends
  // completed (its receives completed before the tasks reading them ran).
  void run_graph() {
    if (finishing_ == 0) return;
    for (long id : recv_roots_) post_receive(id);
    for (long id : compute_roots_) submit(id);
    done_.wait();
  }

  [[nodiscard]] bool failed() const { return failed_.load(); }

  void note_error(std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      fail(x.what());
    }
  }

 private:
  struct alignas(64) Counter {
    std::atomic<std::int32_t> n{0};
  };

  long id(long t, long x) const { return t * g_.width + x; }
  bool exists(long t, long x) const {
    return t >= 0 && t < g_.steps && x >= g_.offset_at(t) && x < g_.offset_at(t) + g_.width_at(t);
  }

  void build(const std::vector<dt::Exchange>& plan) {
    std::vector<std::vector<std::int32_t>> succ(n_), peers(n_);
    initial_.assign(n_, 0);
    pending_ = std::vector<Counter>(n_);
    is_recv_.assign(n_, 0);
    // Receives: (t, y) for each remote input row t+1 reads here.
    for (long t = 0; t + 1 < g_.steps; ++t)
      for (const dt::Transfer& r : plan[size_t(t + 1)].recvs) is_recv_[size_t(id(t, r.y))] = 1;
    for (long t = 0; t + 1 < g_.steps; ++t)
      for (const dt::Transfer& snd : plan[size_t(t + 1)].sends) peers[size_t(id(t, snd.y))].push_back(snd.peer);
    // The next receive into the same slot: slot y of row t & 1 is written again by the
    // first receive (t', y), t' > t of the same parity, that exists (rows a pattern
    // does not read from y have none, so there may be gaps).
    std::vector<long> next_recv(n_, -1);
    for (long y = 0; y < g_.width; ++y) {
      if (L_.local(y)) continue;
      long later[2] = {-1, -1};
      for (long t = g_.steps - 1; t >= 0; --t) {
        next_recv[size_t(id(t, y))] = later[t & 1];
        if (is_recv_[size_t(id(t, y))]) later[t & 1] = id(t, y);
      }
    }
    std::vector<long> stamp(n_, -1);
    auto edge = [&](long from, long to) {
      if (stamp[size_t(to)] == from) return;  // each pair once (one source at a time)
      stamp[size_t(to)] = from;
      succ[size_t(from)].push_back(std::int32_t(to));
      ++initial_[size_t(to)];
    };
    for (long t = 0; t < g_.steps; ++t) {
      // Sources of row t in id order: computes (local x) and receives (remote y).
      for (long x = g_.offset_at(t); x < g_.offset_at(t) + g_.width_at(t); ++x) {
        const long src = id(t, x);
        const bool compute = L_.local(x);
        if (!compute && !is_recv_[size_t(src)]) continue;
        bool read_here = false;
        // Read after write: local readers of (t, x) in row t+1.
        if (t + 1 < g_.steps) {
          for (long z = std::max(L_.lo(), g_.offset_at(t + 1)); z < std::min(L_.hi(), g_.offset_at(t + 1) + g_.width_at(t + 1)); ++z) {
            g_.for_each_input(t + 1, z, [&](long y) {
              if (y != x) return;
              edge(src, id(t + 1, z));
              read_here = true;
            });
          }
        }
        if (!compute) continue;
        // Write after read: this task read slot y of row t-1; row t+1 writes it next if
        // y is local, else the next receive into it. That receive's other
        // predecessors are the readers of the same message, so receives into one slot
        // (one tag from one rank) are also posted in the order their messages come.
        g_.for_each_input(t, x, [&](long y) {
          if (L_.local(y)) {
            if (exists(t + 1, y)) edge(src, id(t + 1, y));
          } else if (const long next = next_recv[size_t(id(t - 1, y))]; next >= 0) {
            edge(src, next);
          }
        });
        // Write after write, and the sends that read the slot until they complete.
        if (!read_here && exists(t + 2, x)) edge(src, id(t + 2, x));
        if (exists(t + 2, x)) initial_[size_t(id(t + 2, x))] += std::int32_t(peers[size_t(src)].size());
      }
    }
    // Flatten into CSR; roots; what must finish before a run is over.
    first_.assign(n_ + 1, 0);
    send_first_.assign(n_ + 1, 0);
    for (size_t i = 0; i < n_; ++i) {
      first_[i + 1] = first_[i] + long(succ[i].size());
      send_first_[i + 1] = send_first_[i] + long(peers[i].size());
    }
    for (size_t i = 0; i < n_; ++i) {
      succ_.insert(succ_.end(), succ[i].begin(), succ[i].end());
      send_peer_.insert(send_peer_.end(), peers[i].begin(), peers[i].end());
      send_from_.insert(send_from_.end(), peers[i].size(), std::int32_t(i));
    }
    recv_ops_ = std::vector<OpSlot<RecvOp>>(n_);
    send_ops_ = std::vector<OpSlot<SendOp>>(send_peer_.size());
    finishing_ = long(send_peer_.size());
    for (long t = 0; t < g_.steps; ++t) {
      for (long x = g_.offset_at(t); x < g_.offset_at(t) + g_.width_at(t); ++x) {
        const long i = id(t, x);
        if (L_.local(x)) {
          ++finishing_;
          if (initial_[size_t(i)] == 0) compute_roots_.push_back(i);
        } else if (is_recv_[size_t(i)] && initial_[size_t(i)] == 0) {
          recv_roots_.push_back(i);
        }
      }
    }
  }

  // A compute whose output another rank waits for is on the critical path between
  // ranks: it runs before the rank's other ready tasks (high priority, and first
  // choice for running inline).
  bool sends(long i) const { return send_first_[size_t(i) + 1] != send_first_[size_t(i)]; }

  void submit(long i) {
    loom::ext::submit(loom::ext::make_task([this, i] { run_from(i); },
                                           sends(i) ? loom::priority::high : loom::priority::normal));
  }

  // A node's predecessors are done: a compute runs (here, or as a task when `ready`
  // already holds one), a receive is posted.
  void release(long i, long& ready) {
    // A count of 1 read here is this release's own: every other predecessor has
    // decremented already (acquire: their writes are visible), nobody else touches
    // the counter until reset(), so the last release skips its read-modify-write.
    std::atomic<std::int32_t>& n = pending_[size_t(i)].n;
    if (n.load(std::memory_order_acquire) != 1 && n.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (is_recv_[size_t(i)]) {
      post_receive(i);
      return;
    }
    if (ready < 0) {
      ready = i;
    } else if (sends(i) && !sends(ready)) {
      submit(ready);
      ready = i;
    } else {
      submit(i);
    }
  }

  // Everything this object is touched for happens before the decrement that may
  // end the run (the waiting thread then resets or destroys it).
  void finish(long n) {
    if (remaining_.fetch_sub(n, std::memory_order_acq_rel) == n) done_.notify();
  }
  void finish_one() { finish(1); }

  // Starts the operation of `request` in `slot`; a request complete already
  // completes here, and the handler then queues what it makes ready rather than
  // running it (no nesting grows the stack).
  template <class Op, class Done>
  void start(OpSlot<Op>& slot, MPI_Request request, Done done) {
    const bool outer = starting;
    starting = true;
    slot.emplace([&] { return ex::connect(loom::mpi::as_sender(request), done); }).start();
    starting = outer;
  }

  void post_receive(long i) {
    const long t = i / g_.width, y = i % g_.width;
    MPI_Request r = MPI_REQUEST_NULL;
    if (MPI_Irecv(&run_.rows.row(t)[y], int(sizeof(tb::Record)), MPI_BYTE, L_.owner(y), dt::tag_of(t, y),
                  MPI_COMM_WORLD, &r) != MPI_SUCCESS)
      fail("MPI_Irecv failed");
    start(recv_ops_[size_t(i)], r, RecvDone{this, i});
  }

  // Receive `i` completed: its readers may run; in a task of its own the completion
  // runs one of them itself.
  void received(long i) {
    long ready = -1;
    for (long k = first_[size_t(i)], end = first_[size_t(i) + 1]; k < end; ++k) release(succ_[size_t(k)], ready);
    if (ready < 0) return;
    if (starting) {
      submit(ready);
    } else {
      run_from(ready);
    }
  }

  void send_output(long i) {
    const long t = i / g_.width, x = i % g_.width;
    for (long k = send_first_[size_t(i)], end = send_first_[size_t(i) + 1]; k < end; ++k) {
      MPI_Request r = MPI_REQUEST_NULL;
      if (MPI_Isend(&run_.rows.row(t)[x], int(sizeof(tb::Record)), MPI_BYTE, int(send_peer_[size_t(k)]),
                    dt::tag_of(t, x), MPI_COMM_WORLD, &r) != MPI_SUCCESS)
        fail("MPI_Isend failed");
      start(send_ops_[size_t(k)], r, SendDone{this, k});
    }
  }

  // Send `k` completed: the slot it read may be written again.
  void sent(long k) {
    const long i = send_from_[size_t(k)], t = i / g_.width, x = i % g_.width;
    long ready = -1;
    if (exists(t + 2, x)) release(id(t + 2, x), ready);
    if (ready >= 0) submit(ready);
    finish_one();
  }

  void fail(const char* what) {
    if (!failed_.exchange(true)) std::fprintf(stderr, "taskbench_mpi: %s\n", what);
  }

  // Runs compute `i`, sends its output, releases its successors; keeps running one
  // successor it made ready. The chain's tasks are counted finished together at its
  // end (one read-modify-write of the shared count, after the chain's last touch).
  void run_from(long i) {
    long finished = 0;
    for (;;) {
      const long t = i / g_.width, x = i % g_.width;
      run_.execute(t, x, loom::this_worker());
      send_output(i);
      long ready = -1;
      for (long k = first_[size_t(i)], end = first_[size_t(i) + 1]; k < end; ++k) release(succ_[size_t(k)], ready);
      ++finished;
      if (ready < 0) break;
      i = ready;
    }
    finish(finished);
  }

  using RecvDone = Completion<DistributedGraph, &DistributedGraph::received>;
  using SendDone = Completion<DistributedGraph, &DistributedGraph::sent>;
  using RecvOp = decltype(ex::connect(loom::mpi::as_sender(MPI_REQUEST_NULL), std::declval<RecvDone>()));
  using SendOp = decltype(ex::connect(loom::mpi::as_sender(MPI_REQUEST_NULL), std::declval<SendDone>()));
  // Set while this thread starts an operation (its completion may come at once).
  static inline thread_local bool starting = false;

  tb::GraphRun& run_;
  const tb::Graph& g_;
  const dt::Layout L_;
  const size_t n_;
  std::vector<long> first_, send_first_;   // CSR offsets per id
  std::vector<std::int32_t> succ_, send_peer_, send_from_;  // send_from_: the compute of each send
  std::vector<OpSlot<RecvOp>> recv_ops_;  // per id (receives only)
  std::vector<OpSlot<SendOp>> send_ops_;  // per send
  std::vector<std::int32_t> initial_;
  std::vector<Counter> pending_;
  std::vector<char> is_recv_;
  std::vector<long> compute_roots_, recv_roots_;
  long finishing_ = 0;  // local computes + sends: what a run waits for
  std::atomic<long> remaining_{0};
  std::atomic<bool> failed_{false};
  loom::ext::wait_slot done_;
};

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench_mpi", "distributed Task Bench on loom tasks and loom::mpi futures");
  dt::Options o = dt::parse(cli);
  loom::mpi::environment env(argc, argv);
  dt::Setup s = dt::setup(o, cli);
  int status = 0;
  {
    loom::runtime rt{loom::runtime_options{.num_threads = unsigned(s.threads_per_rank)}};
    const int workers = int(loom::num_threads());
    tb::GraphRun graph_run(o.cfg.graph, o.cfg.kernel, workers);
    DistributedGraph graph(graph_run, s);
    // The whole timing loop runs as a loom task: its waits park on a worker, so the
    // clock never includes a thread outside the pool being woken (with one worker per
    // rank the pool has a thread of its own and main would only wait).
    auto timing = loom::async([&] {
                    return dt::measure(
                        o.run, [&] { graph_run.reset(); graph.reset(); }, [&] { graph.run_graph(); },
                        [&] { return !graph.failed() && dt::verified_everywhere(graph_run, s.layout); });
                  }).get();
    status = dt::report(cli, o, s, timing);
  }
  return status;
}
