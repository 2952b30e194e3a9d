// Scans (inclusive, exclusive, with a transformation) in one pass over memory, by
// decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", NVIDIA NVR-2016-002). `lanes` tasks (the caller is one) take
// fixed chunks from a shared index, in order. A chunk folds its elements, publishes
// that aggregate, and walks back over its predecessors' published values, adding
// aggregates, until one has published its inclusive total; it publishes its own
// inclusive total and then scans its elements from the total before it. A lane that
// also ran the previous chunk (no other lane took one in between) and finds that
// chunk's inclusive total there skips the fold: a lane running alone makes one serial
// pass.
//
// Why not two passes (fold every chunk, then scan every chunk): that reads the input
// from memory twice, and a scan of a large array is bound by memory, not by the
// operation: 1e7 int64 on 2 workers took 6.65 ms against 5.2 ms serial. Here a chunk
// is sized to stay in its worker's cache between its fold and its scan, so memory sees
// the input read once and the output written once, as in a serial scan.
//
// A look-back does not wait without bound for another lane when the output is not the
// input: a predecessor that has published nothing after `lookback_patience` is folded
// by the waiter itself (it only reads the input). A lane whose thread is preempted, or
// whose operation waits for other tasks, then delays the scan but cannot deadlock it;
// the cost is that `op` and the transformation may run more than once on such a
// chunk's elements (still O(n) in all).
//
// The output may be the input (in-place scans): each chunk reads each of its elements
// before it writes its slot, and reads no other chunk's elements -- which is why an
// in-place scan has no patience fallback (its owner may be writing the chunk) and its
// look-back waits as long as it takes. Its operation must not wait for other tasks of
// loom's pool while a lane of the scan may be the one to run them.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"
#include "loom/detail/algorithm_integer_scan.hpp"
#include "loom/ext/spin.hpp"
#include "loom/task_group.hpp"

namespace loom::detail {

/// Where a scan of a range stopped: past the last output, and the total so far.
template <class Out, class T>
struct scan_end {
    Out out;
    T total;
};

/// One step of a scan: out gets the sum including x (inclusive) or before it.
template <bool Inclusive, class T, class X, class Out, class Op>
inline void scan_step(T& sum, X&& x, Out&& out, Op& op) {
    if constexpr (Inclusive) {
        sum = std::invoke(op, std::move(sum), std::forward<X>(x));
        out = sum;
    } else {
        T next(std::invoke(op, sum, std::forward<X>(x)));  // x is read before out is written
        out = std::move(sum);
        sum = std::move(next);
    }
}

/// Scans [first, last) into out continuing from `sum`. Exclusive: out[i] gets the sum
/// before element i. Sums of 4- and 8-byte integers go to their vector kernel
/// (algorithm_integer_scan.hpp). Other random-access ranges go four elements per
/// round: the int64 loop is five instructions, and gcc 12 may place it across a
/// 64-byte boundary, where it ran at half speed (2.85 against 5.4 us per 1e4 int64,
/// the same instructions at another address; gcc ignores `#pragma GCC unroll` on it).
template <bool Inclusive, class In, class Out, class T, class Op, class Un>
scan_end<Out, T> scan_from(In first, In last, Out out, T sum, Op& op, Un& un) {
#if defined(__SSE2__)
    if constexpr (integer_sum_scan<In, Out, T, Op, Un>) {
        const std::size_t n = std::size_t(last - first);
        sum = integer_sum_scan_from<Inclusive>(std::to_address(first), std::to_address(out), n, sum);
        return {out + std::ptrdiff_t(n), sum};
    }
#endif
    if constexpr (all_random_access<In, Out>) {
        for (; last - first >= 4; first += 4, out += 4) {
            scan_step<Inclusive>(sum, std::invoke(un, first[0]), out[0], op);
            scan_step<Inclusive>(sum, std::invoke(un, first[1]), out[1], op);
            scan_step<Inclusive>(sum, std::invoke(un, first[2]), out[2], op);
            scan_step<Inclusive>(sum, std::invoke(un, first[3]), out[3], op);
        }
    }
    for (; first != last; ++first, ++out) scan_step<Inclusive>(sum, std::invoke(un, *first), *out, op);
    return {std::move(out), std::move(sum)};
}

/// As scan_from, from `acc` (none: the first element starts the inclusive scan; an
/// exclusive scan always has a start value). The range is not empty.
template <bool Inclusive, class In, class Out, class T, class Op, class Un>
scan_end<Out, T> scan_range(In first, In last, Out out, std::optional<T> acc, Op& op, Un& un) {
    if constexpr (Inclusive) {
        // The first element settles whether there is a start value; the loop then
        // works on a plain T (an optional per step costs ~50 % on int64 scans).
        if (!acc) {
            acc.emplace(std::invoke(un, *first));
            *out = *acc;
            ++first;
            ++out;
        }
    }
    return scan_from<Inclusive>(first, last, std::move(out), std::move(*acc), op, un);
}

template <class T, class In, class Op, class Un>
T fold_range(In first, In last, Op& op, Un& un) {
    T acc(std::invoke(un, *first));
    for (++first; first != last; ++first) acc = std::invoke(op, std::move(acc), std::invoke(un, *first));
    return acc;
}

/// A chunk is read twice by its worker (fold, then scan): input plus output of this
/// many bytes stays in the worker's cache in between (x86 server cores have 512 KiB
/// to 2 MiB of L2).
inline constexpr std::size_t scan_chunk_bytes = 256 * 1024;

/// The smallest default chunk. Below two of them a call runs inline: a chunk costs
/// about half a scan more for its fold, and a fork and join about 1 us, so a scan of
/// 1e4 int64 (2.7 us serial) took 3.2 us on 2 workers with both taking part.
inline constexpr std::size_t min_scan_chunk = 8192;

/// How long a look-back waits for a predecessor to publish before folding its chunk
/// itself: far above a chunk's fold (16384 int64: ~5 us from memory), so only a lane
/// that is not running gets overtaken.
inline constexpr std::chrono::microseconds lookback_patience{1000};

/// Elements per chunk: an explicit chunk size as given; by default about two chunks
/// per lane (one look-back per lane at small sizes), capped so that a chunk fits in
/// cache (scan_chunk_bytes).
inline std::size_t scan_chunk_size(const exec_info& ei, const bulk_plan& plan, std::size_t n,
                                   std::size_t bytes_per_element) {
    using execution::detail::schedule;
    const bool explicit_size = ei.params.kind == schedule::fixed || ei.params.kind == schedule::dynamic ||
                               ei.params.kind == schedule::guided;
    if (explicit_size && ei.params.chunk != 0) return ei.params.chunk;
    if (ei.params.kind == schedule::fixed) return plan.chunk;  // static without a size: one per lane
    const std::size_t cached = std::max(min_scan_chunk, scan_chunk_bytes / std::max<std::size_t>(1, bytes_per_element));
    return std::clamp(ceil_div(n, 2 * std::size_t(plan.lanes)), min_scan_chunk, cached);
}

/// What a chunk has published for the chunks after it.
enum class chunk_published : unsigned char { nothing, aggregate, inclusive, failed };

/// One chunk's published values, on a cache line of its own: its owner writes it
/// once or twice while the next chunks' owners poll it.
template <class T>
struct alignas(64) scan_chunk_state {
    std::atomic<chunk_published> published{chunk_published::nothing};
    std::optional<T> aggregate;  // written before published says aggregate (release)
    std::optional<T> inclusive;  // written before published says inclusive (release)
};

template <bool Inclusive, class In, class Out, class T, class Op, class Un>
class lookback_scan {
public:
    lookback_scan(const exec_info& ei, In first, Out out, std::size_t n, std::size_t chunk, unsigned lanes,
                  const std::optional<T>& init, Op& op, Un& un)
        : ei_(ei), first_(first), out_(out), n_(n), chunk_(chunk), chunks_(ceil_div(n, chunk)),
          lanes_(unsigned(std::min<std::size_t>(lanes, chunks_))), may_overtake_(!in_place(first, out)),
          init_(init), op_(op), un_(un), state_(chunks_) {}

    void run() {
        task_group g;
        for (unsigned i = 1; i < lanes_; ++i) g.spawn([this] { lane(); }, ei_.prio);
        lane();
        g.wait();  // lanes never throw: chunks catch
        err_.rethrow();
    }

private:
    // Claims chunks in order until none is left. A claimed chunk always ends
    // published (a value, or failed), so no look-back waits on it for ever.
    void lane() noexcept {
        std::size_t previous = chunks_;  // the chunk this lane ran last (none yet)
        for (;;) {
            // Relaxed: the index hands out disjoint chunks; the values travel through
            // each chunk's `published` (release / acquire).
            const std::size_t c = next_.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks_) return;
            if (err_.failed() || !guarded(ei_, err_, [&] { run_chunk(c, previous + 1 == c); }))
                state_[c].published.store(chunk_published::failed, std::memory_order_release);
            previous = c;
        }
    }

    // `after_own`: this lane ran chunk c - 1 too, so no other lane took a chunk in
    // between: it is running alone for now.
    void run_chunk(std::size_t c, bool after_own) {
        const std::size_t b = c * chunk_;
        const std::size_t e = std::min(n_, b + chunk_);
        scan_chunk_state<T>& me = state_[c];
        // One pass (no fold) when the total before the chunk is known and no other lane
        // is running: a chunk that scans first publishes its total only at its end, so
        // a lane working beside it would wait that long for it; with a fold first, it
        // publishes as soon as its predecessor has.
        if (after_own && state_[c - 1].published.load(std::memory_order_acquire) == chunk_published::inclusive) {
            std::optional<T> before = state_[c - 1].inclusive;
            publish_inclusive(me, scan_range<Inclusive>(first_ + b, first_ + e, out_ + std::ptrdiff_t(b),
                                                         std::move(before), op_, un_).total);
            return;
        }
        T aggregate = fold(b, e);
        std::optional<T> before;
        if (c == 0) {
            before = init_;
        } else {
            me.aggregate.emplace(aggregate);
            me.published.store(chunk_published::aggregate, std::memory_order_release);
            before = look_back(c);
            if (!before) {  // an earlier chunk failed: nothing after it is written
                me.published.store(chunk_published::failed, std::memory_order_release);
                return;
            }
        }
        publish_inclusive(me, before ? join(*before, std::move(aggregate)) : std::move(aggregate));
        scan_range<Inclusive>(first_ + b, first_ + e, out_ + std::ptrdiff_t(b), std::move(before), op_, un_);
    }

    // The integer sums of the vector kernel (integer_sum_scan) fold and join chunks in
    // unsigned arithmetic, as the kernel scans: a signed sum that overflows wraps the
    // same way in every part of the scan instead of being undefined in some
    // (UndefinedBehaviorSanitizer saw the join overflow where the kernel had wrapped).
    static constexpr bool wrapping_sum = integer_sum_scan<In, Out, T, Op, Un>;

    T join(T a, T b) {
        if constexpr (wrapping_sum) {
            using U = std::make_unsigned_t<T>;
            return T(U(U(a) + U(b)));
        } else {
            return T(std::invoke(op_, std::move(a), std::move(b)));
        }
    }

    // The fold of elements [b, e).
    T fold(std::size_t b, std::size_t e) {
        if constexpr (wrapping_sum) {
            using U = std::make_unsigned_t<T>;
            U sum = 0;
            for (auto it = first_ + b, end = first_ + e; it != end; ++it) sum = U(sum + U(*it));
            return T(sum);
        } else {
            return fold_range<T>(first_ + b, first_ + e, op_, un_);
        }
    }

    static void publish_inclusive(scan_chunk_state<T>& s, T total) {
        s.inclusive.emplace(std::move(total));
        s.published.store(chunk_published::inclusive, std::memory_order_release);
    }

    // The total of every element before chunk c; none if an earlier chunk failed.
    std::optional<T> look_back(std::size_t c) {
        std::optional<T> between;  // fold of chunks j+1 .. c-1
        auto prepend = [&](T part) -> T {
            return between ? join(std::move(part), std::move(*between)) : std::move(part);
        };
        for (std::size_t j = c; j-- > 0;) {
            switch (wait_for(j)) {
                case chunk_published::inclusive: return prepend(*state_[j].inclusive);
                case chunk_published::aggregate: between.emplace(prepend(*state_[j].aggregate)); break;
                case chunk_published::failed: return std::nullopt;
                case chunk_published::nothing: {
                    // Out of patience: fold chunk j here (chunk 0 starts from init).
                    const std::size_t b = j * chunk_;
                    T part = fold(b, std::min(n_, b + chunk_));
                    if (j == 0 && init_) part = join(*init_, std::move(part));
                    between.emplace(prepend(std::move(part)));
                    if (j == 0) return between;
                    break;
                }
            }
        }
        return between;  // not reached: chunk 0 publishes its inclusive total or is folded
    }

    // What chunk j has published, waiting for it up to lookback_patience (then
    // `nothing`). Spins first: the usual wait is the rest of a neighbour's fold.
    chunk_published wait_for(std::size_t j) const noexcept {
        using clock = std::chrono::steady_clock;
        const std::atomic<chunk_published>& p = state_[j].published;
        chunk_published s = p.load(std::memory_order_acquire);
        if (s != chunk_published::nothing) return s;
        const auto deadline = may_overtake_ ? clock::now() + lookback_patience : clock::time_point::max();
        for (unsigned i = 1;; ++i) {
            if (i % 64 != 0) {
                ext::cpu_relax();
            } else {
                if (err_.failed()) return chunk_published::failed;
                if (may_overtake_ && clock::now() > deadline) return chunk_published::nothing;
                std::this_thread::yield();  // the owner may be waiting for this CPU
            }
            if ((s = p.load(std::memory_order_acquire)) != chunk_published::nothing) return s;
        }
    }

    // Whether out is first (the standard lets a scan's result be its input; any other
    // overlap is undefined). Iterators of different types are compared by address
    // when both are contiguous; otherwise they cannot denote the same elements.
    static bool in_place(In first, Out out) noexcept {
        if constexpr (std::is_same_v<In, Out>) {
            return first == out;
        } else if constexpr (std::contiguous_iterator<In> && std::contiguous_iterator<Out>) {
            return static_cast<const volatile void*>(std::to_address(first)) ==
                   static_cast<const volatile void*>(std::to_address(out));
        } else {
            return false;
        }
    }

    const exec_info& ei_;
    In first_;
    Out out_;
    std::size_t n_;
    std::size_t chunk_;
    std::size_t chunks_;
    unsigned lanes_;
    bool may_overtake_;              // a look-back may fold a late predecessor itself
    const std::optional<T>& init_;  // read by chunk 0, and by a look-back that folds it
    Op& op_;
    Un& un_;
    std::vector<scan_chunk_state<T>> state_;
    std::atomic<std::size_t> next_{0};
    bulk_error err_;
};

template <bool Inclusive, class In, class Out, class T, class Op, class Un>
Out scan_impl(const exec_info& ei, In first, In last, Out out, std::optional<T> init, Op& op, Un& un) {
    if constexpr (all_random_access<In, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            const bulk_plan plan = make_plan(ei, n);
            const std::size_t chunk =
                scan_chunk_size(ei, plan, n, sizeof(std::iter_value_t<In>) + sizeof(T));
            if (plan.lanes > 1 && n >= 2 * chunk) {
                lookback_scan<Inclusive, In, Out, T, Op, Un>(ei, first, out, n, chunk, plan.lanes, init, op, un).run();
                return out + std::ptrdiff_t(n);
            }
        }
    }
    return run_inline(ei, [&] {
        if (first == last) return out;
        return scan_range<Inclusive>(first, last, std::move(out), std::move(init), op, un).out;
    });
}

}  // namespace loom::detail
