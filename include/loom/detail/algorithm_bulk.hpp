// The engine under every parallel algorithm: runs leaf(b, e) over chunks of [0, n) on
// loom's workers and combines the leaves' results. Two schedules (algorithm_plan.hpp):
//   split: binary splitting (task_group per node: the right half is spawned, the left
//          run here, so an idle worker steals the biggest piece first). With explicit
//          chunk sizes it goes down to one chunk. By default it splits lazily, as
//          oneTBB's auto_partitioner does: into one piece per worker, and further only
//          where work moved -- a piece that was stolen splits again, and a piece run
//          chunk by chunk splits its rest when a worker is idle while nothing spawned
//          waits to be taken. A call nobody helps thus costs one spawn per worker, not
//          one per chunk (reduce of 1e4 int64 on 2 workers: 3.2 us with 16 tasks,
//          1.5 us with 2);
//   claim: `lanes` tasks (the caller is one) take chunks from a shared atomic index
//          (dynamic, guided, and any schedule bounded by num_cores).
// Exceptions: the first one thrown by a leaf is kept, chunks not yet started are
// skipped, every started chunk finishes, then the caller gets it (par). Under
// par_unseq a leaf runs inside a noexcept frame, so an exception terminates.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <utility>
#include <vector>

#include "loom/detail/algorithm_plan.hpp"
#include "loom/task_group.hpp"

namespace loom::detail {

/// The first exception of a parallel algorithm call. failed() is a hint for skipping
/// work (relaxed); the task_group joins order the exception_ptr before rethrow().
class bulk_error {
public:
    [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
    void capture() noexcept {
        bool expected = false;
        if (claimed_.compare_exchange_strong(expected, true, std::memory_order_relaxed)) {
            error_ = std::current_exception();
            failed_.store(true, std::memory_order_relaxed);
        }
    }
    void rethrow() {
        if (failed_.load(std::memory_order_relaxed)) std::rethrow_exception(error_);
    }

private:
    std::atomic<bool> failed_{false};
    std::atomic<bool> claimed_{false};
    std::exception_ptr error_;
};

/// Calls f() so that an exception leaving it terminates (par_unseq, unseq).
template <class F>
decltype(auto) call_terminating(F&& f) noexcept {
    return std::forward<F>(f)();
}

/// Runs f() under the policy's exception rule; returns false if it threw (kept in err).
template <class F>
bool guarded(const exec_info& ei, bulk_error& err, F&& f) noexcept {
    if (ei.terminates()) {
        call_terminating(std::forward<F>(f));
        return true;
    }
    try {
        std::forward<F>(f)();
        return true;
    } catch (...) {
        err.capture();
        return false;
    }
}

/// What a for_each-like leaf "returns": nothing to combine.
struct no_result {};

/// What one steady_clock::now() costs on this machine: the least of a few back-to-back
/// pairs of reads, measured once.
inline std::chrono::nanoseconds clock_read_cost() noexcept {
    static const std::chrono::nanoseconds cost = [] {
        using clock = std::chrono::steady_clock;
        auto least = clock::duration::max();
        for (int i = 0; i < 16; ++i) {
            const auto a = clock::now();
            least = std::min(least, clock::now() - a);
        }
        return std::chrono::duration_cast<std::chrono::nanoseconds>(least);
    }();
    return cost;
}

template <class T, class Leaf, class Combine>
class bulk_runner {
public:
    bulk_runner(const exec_info& ei, std::size_t n, Leaf& leaf, Combine& combine)
        : ei_(ei), n_(n), leaf_(leaf), combine_(combine) {}

    std::optional<T> run() {
        std::optional<T> acc;
        if (n_ == 0) return acc;
        plan_ = make_plan(ei_, n_);
        std::size_t done = 0;
        if (plan_.measure) done = measure(acc);
        if (plan_.adaptive && plan_.lanes > 1 && probe_says_serial(acc, done)) {
            if (done < n_) add(acc, leaf(done, n_));
        } else if (done < n_) {
            add(acc, dispatch(done));
        }
        err_.rethrow();
        return acc;
    }

    /// Work below which the default schedule runs a call on the caller alone: a spawn
    /// that wakes a sleeping worker costs a system call (2-5 us on a VM), and a steal
    /// about 1 us. reduce of 1e4 int64 (1.4 us of work) on 2 workers took 1.6 us when
    /// the other worker stole at once and 5-7 us when it had to be woken.
    static constexpr std::chrono::nanoseconds serial_below{4'000};

private:
    std::optional<T> dispatch(std::size_t base) {
        const std::size_t rest = n_ - base;
        if (plan_.lanes <= 1 || rest <= plan_.chunk) return leaf(base, n_);
        if (plan_.claim) return claim_all(base);
        fresh_depth_ = plan_.adaptive ? unsigned(std::bit_width(plan_.lanes - 1)) : unbounded_depth;
        return split(base, 0, ceil_div(rest, plan_.chunk), fresh_depth_);
    }

    std::optional<T> leaf(std::size_t b, std::size_t e) noexcept {
        std::optional<T> r;
        if (err_.failed()) return r;  // a chunk that starts after a failure is skipped
        guarded(ei_, err_, [&] { r.emplace(leaf_(b, e)); });
        return r;
    }

    void add(std::optional<T>& acc, std::optional<T>&& x) noexcept {
        if (!x) return;
        if (!acc) {
            acc = std::move(x);
            return;
        }
        guarded(ei_, err_, [&] { acc.emplace(combine_(std::move(*acc), std::move(*x))); });
    }

    static constexpr unsigned unbounded_depth = ~0U;

    std::optional<T> chunk_leaf(std::size_t base, std::size_t c) {
        return leaf(base + c * plan_.chunk, std::min(n_, base + (c + 1) * plan_.chunk));
    }

    // Chunk indices [cb, ce) of the range that starts at base; `depth` more halvings
    // before the rest runs here chunk by chunk.
    std::optional<T> split(std::size_t base, std::size_t cb, std::size_t ce, unsigned depth) {
        if (ce - cb == 1) return chunk_leaf(base, cb);
        if (depth == 0) return run_chunks(base, cb, ce);
        const std::size_t mid = cb + (ce - cb) / 2;
        std::optional<T> right;
        task_group g;
        // Relaxed: unclaimed_ is a hint for demand(), which nothing else depends on.
        unclaimed_.fetch_add(1, std::memory_order_relaxed);
        g.spawn(
            [this, &right, base, mid, ce, depth, spawner = ext::current_worker()] {
                unclaimed_.fetch_sub(1, std::memory_order_relaxed);
                // Stolen: a worker was idle, so this piece is cut for sharing again.
                const bool stolen = ext::current_worker() != spawner;
                right = split(base, mid, ce, stolen ? fresh_depth_ : depth - 1);
            },
            ei_.prio);
        std::optional<T> left = split(base, cb, mid, depth == unbounded_depth ? depth : depth - 1);
        g.wait();  // children never throw: leaves catch
        add(left, std::move(right));
        return left;
    }

    // The default schedule's leaf piece: its chunks in order here, unless another
    // worker turns idle meanwhile; then the rest is split for it.
    std::optional<T> run_chunks(std::size_t base, std::size_t cb, std::size_t ce) {
        std::optional<T> acc = chunk_leaf(base, cb);
        for (std::size_t c = cb + 1; c < ce; ++c) {
            if (ce - c > 1 && demand()) {
                add(acc, split(base, c, ce, fresh_depth_));
                return acc;
            }
            add(acc, chunk_leaf(base, c));
        }
        return acc;
    }

    // Another worker is idle and no spawned piece of this call waits to be taken (a
    // thief that is on its way finds that one). Looks at no more than
    // `demand_probes` workers, the ones after this one, so that a check costs the same
    // on 2 workers and on 128.
    static constexpr unsigned demand_probes = 4;
    bool demand() const noexcept {
        if (unclaimed_.load(std::memory_order_relaxed) != 0) return false;
        const unsigned lanes = plan_.lanes;
        const int me = ext::current_worker();
        const unsigned first = me < 0 ? 0 : unsigned(me) + 1;
        const unsigned probes = std::min(demand_probes, me < 0 ? lanes : lanes - 1);
        for (unsigned k = 0; k < probes; ++k) {
            if (!ext::worker_in_task((first + k) % lanes)) return true;
        }
        return false;
    }

    std::size_t claim(std::size_t& begin) noexcept {
        std::size_t cur = next_.load(std::memory_order_relaxed);
        for (;;) {
            if (cur >= n_ || err_.failed()) return 0;
            const std::size_t rest = n_ - cur;
            std::size_t c = plan_.chunk;
            if (plan_.guided) c = std::max(c, rest / (2 * std::size_t(plan_.lanes)));
            c = std::min(c, rest);
            // Relaxed: the index only hands out disjoint ranges; the data is ordered
            // by the task_group join.
            if (next_.compare_exchange_weak(cur, cur + c, std::memory_order_relaxed)) {
                begin = cur;
                return c;
            }
        }
    }

    std::optional<T> lane() noexcept {
        std::optional<T> acc;
        std::size_t b = 0;
        for (std::size_t c = claim(b); c != 0; c = claim(b)) add(acc, leaf(b, b + c));
        return acc;
    }

    std::optional<T> claim_all(std::size_t base) {
        next_.store(base, std::memory_order_relaxed);
        std::vector<std::optional<T>> results(plan_.lanes);
        task_group g;
        for (unsigned i = 1; i < plan_.lanes; ++i) {
            g.spawn([this, &results, i] { results[i] = lane(); }, ei_.prio);
        }
        results[0] = lane();
        g.wait();
        std::optional<T> acc;
        for (auto& r : results) add(acc, std::move(r));
        return acc;
    }

    // Default schedule: the caller runs doubling batches of the range's start (up to
    // 1/16 of the range or 0.5 us) and times them. True when the whole range then
    // looks cheaper than serial_below. The first batch is at most one chunk, so that
    // costly iterations on many workers wait little for the probe.
    bool probe_says_serial(std::optional<T>& acc, std::size_t& done) {
        const std::size_t limit = std::min(n_, std::max(plan_.chunk, n_ / 16));
        const std::size_t first = std::max<std::size_t>(1, std::min(limit / 8, plan_.chunk));
        const double per_iter = time_batches(acc, done, first, limit, limit, serial_below / 8);
        if (err_.failed()) return true;  // nothing more starts anyway
        return per_iter * double(n_) < double(serial_below.count());
    }

    // Runs batches of `first`, 2 `first`, 4 `first`... iterations here from `done` (each
    // at most up to `cap`) while `done` < `limit` and less than `budget` has passed;
    // returns the time per iteration in ns. A clock read costs 20-40 ns: the doubling
    // makes the time of cheap iterations long enough to read, and the reads' own time
    // is taken out (counted in, the probe of a reduce of 1e4 int64 -- 1.7 us of work
    // -- read 4.8 us, past serial_below, and the call woke a worker: 3-12 us).
    double time_batches(std::optional<T>& acc, std::size_t& done, std::size_t first, std::size_t limit,
                        std::size_t cap, std::chrono::nanoseconds budget) {
        using clock = std::chrono::steady_clock;
        const std::size_t start = done;
        const auto t0 = clock::now();
        auto spent = clock::duration::zero();
        long reads = 0;
        for (std::size_t k = first; done < limit && spent < budget; k *= 2) {
            const std::size_t take = std::min(k, cap - done);
            add(acc, leaf(done, done + take));
            done += take;
            spent = clock::now() - t0;
            ++reads;
        }
        const double clock_ns = double(clock_read_cost().count()) * double(reads);
        const double work_ns = std::chrono::duration<double, std::nano>(spent).count() - clock_ns;
        return std::max(work_ns, 0.0) / double(done - start);
    }

    // auto_chunk_size: run doubling batches here until 1 % of the iterations or one
    // target's worth of time is spent, then size chunks to cost `target` each.
    std::size_t measure(std::optional<T>& acc) {
        std::size_t done = 0;
        const double per_iter = time_batches(acc, done, 1, std::max<std::size_t>(1, n_ / 100), n_, plan_.target);
        const double chunk = per_iter > 0 ? double(plan_.target.count()) / per_iter : double(n_);
        plan_.chunk = std::max<std::size_t>(1, std::size_t(std::min(chunk, double(n_))));
        return done;
    }

    const exec_info& ei_;
    std::size_t n_;
    Leaf& leaf_;
    Combine& combine_;
    bulk_plan plan_;
    bulk_error err_;
    std::atomic<std::size_t> next_{0};
    std::atomic<long> unclaimed_{0};  // spawned pieces not started yet
    unsigned fresh_depth_ = unbounded_depth;
};

/// Runs leaf(b, e) -> T over chunks of [0, n) and combines the results with
/// combine(T&&, T&&) -> T, which must be associative and commutative (claiming
/// hands chunks out of order). Empty if n == 0.
template <class T, class Leaf, class Combine>
std::optional<T> bulk_reduce(const exec_info& ei, std::size_t n, Leaf&& leaf, Combine&& combine) {
    bulk_runner<T, std::remove_reference_t<Leaf>, std::remove_reference_t<Combine>> r(ei, n, leaf, combine);
    return r.run();
}

/// Runs leaf(b, e) over chunks of [0, n).
template <class Leaf>
void bulk_for(const exec_info& ei, std::size_t n, Leaf&& leaf) {
    auto unit = [&leaf](std::size_t b, std::size_t e) {
        leaf(b, e);
        return no_result{};
    };
    auto none = [](no_result, no_result) { return no_result{}; };
    bulk_reduce<no_result>(ei, n, unit, none);
}

/// Runs f() inline under the policy's exception rule (seq: as is; unseq: terminates).
template <class F>
decltype(auto) run_inline(const exec_info& ei, F&& f) {
    if (ei.terminates()) return call_terminating(std::forward<F>(f));
    return std::forward<F>(f)();
}

}  // namespace loom::detail
