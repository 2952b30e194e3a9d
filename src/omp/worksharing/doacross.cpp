// Doacross loops: `ordered(n)` with `depend(sink: ...)` / `depend(source)` (OpenMP 5.2
// `doacross(sink/source)`), lowered by clang to __kmpc_doacross_{init,wait,post,fini}
// (kmpc/worksharing.cpp).
//
// Each doacross loop is a construct of the team like a dynamic loop: it takes the
// member's next construct number and the team's dispatch buffer for it (dispatch.cpp),
// so several loops may be in flight through `nowait`. The claimer of the buffer makes the
// loop's shared state: the dimensions and one bit per iteration of the whole iteration
// space (as libomp), set by `post` with one fetch_or. `wait` spins, then yields (members
// may outnumber cores), then sleeps on the member's sleeper; a poster wakes the team's
// sleepers only when the loop's `sleepers` count says someone may sleep. The last member
// to call `fini` frees the state. No lock is taken anywhere.
//
// No lost wake-up: a waiter increments `sleepers` (seq_cst), then publishes its flag
// and re-checks the bit (sleep_until, seq_cst); a poster sets the bit (seq_cst RMW),
// then reads `sleepers` (seq_cst). If the poster reads 0, its RMW precedes the increment
// in the single total order, so the re-check sees the bit; otherwise it wakes every
// member (wake() reads each flag; a flag not yet published is published later than the
// bit was set, so that re-check sees the bit too). Stale wake-ups only cause a re-check.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "abi.hpp"
#include "worksharing/dispatch.hpp"
#include "worksharing/doacross.hpp"
#include "env/env.hpp"
#include "ompt/events.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

struct doacross_dim {
    kmp_int64 lo = 0;
    kmp_int64 up = 0;
    kmp_int64 st = 1;
    std::uint64_t range = 0;  // iterations of this dimension
};

struct doacross_loop {
    int ndims = 0;
    bool unchecked = false;   // bad dimensions or no memory: waits do not wait
    std::unique_ptr<doacross_dim[]> dims;
    std::uint64_t iterations = 0;
    std::unique_ptr<std::atomic<std::uint64_t>[]> flags;  // bit i: iteration i posted
    alignas(64) std::atomic<int> sleepers{0};             // waiters that may sleep
};

void free_doacross(doacross_loop* d) noexcept { delete d; }

namespace {

std::uint64_t range_of(const kmp_dim& d) {
    const auto lo = static_cast<std::uint64_t>(d.lo), up = static_cast<std::uint64_t>(d.up);
    if (d.st > 0) return d.up < d.lo ? 0 : (up - lo) / static_cast<std::uint64_t>(d.st) + 1;
    const std::uint64_t step = std::uint64_t{0} - static_cast<std::uint64_t>(d.st);
    return d.lo < d.up ? 0 : (lo - up) / step + 1;
}

doacross_loop* unchecked_loop(doacross_loop* d) {
    d->unchecked = true;
    d->flags.reset();
    return d;
}

doacross_loop* make_loop(int ndims, const kmp_dim* dims) {
    auto* d = new doacross_loop;
    d->ndims = ndims;
    if (ndims < 1 || !dims) {
        warn("__kmpc_doacross_init: %d loop dimensions; depend(sink) waits of this loop "
             "will not wait", ndims);
        return unchecked_loop(d);
    }
    d->dims = std::make_unique<doacross_dim[]>(static_cast<std::size_t>(ndims));
    std::uint64_t total = 1;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i].st == 0) {
            warn("__kmpc_doacross_init: dimension %d has stride 0; depend(sink) waits of "
                 "this loop will not wait", i);
            return unchecked_loop(d);
        }
        const std::uint64_t r = range_of(dims[i]);
        d->dims[i] = doacross_dim{dims[i].lo, dims[i].up, dims[i].st, r};
        if (r != 0 && total > UINT64_MAX / r) total = UINT64_MAX;
        else total *= r;
    }
    d->iterations = total;
    const std::uint64_t words = total / 64 + (total % 64 != 0);
    if (total == UINT64_MAX || words > SIZE_MAX / sizeof(std::uint64_t)) d->flags.reset();
    else d->flags.reset(new (std::nothrow) std::atomic<std::uint64_t>[words]());
    if (words != 0 && !d->flags) {
        warn("__kmpc_doacross_init: no memory for the flags of %llu iterations; "
             "depend(sink) waits of this loop will not wait",
             static_cast<unsigned long long>(total));
        return unchecked_loop(d);
    }
    return d;
}

// Linear number of the iteration `vec` names; false if it lies outside the iteration
// space (a sink on a non-existent iteration is satisfied at once, as in libomp).
bool iteration_of(const doacross_loop& d, const kmp_int64* vec, std::uint64_t& out) {
    std::uint64_t n = 0;
    for (int i = 0; i < d.ndims; ++i) {
        const doacross_dim& dim = d.dims[i];
        const auto v = static_cast<std::uint64_t>(vec[i]);
        std::uint64_t k;
        if (dim.st > 0) {
            if (vec[i] < dim.lo || vec[i] > dim.up) return false;
            k = (v - static_cast<std::uint64_t>(dim.lo)) / static_cast<std::uint64_t>(dim.st);
        } else {
            if (vec[i] > dim.lo || vec[i] < dim.up) return false;
            k = (static_cast<std::uint64_t>(dim.lo) - v) /
                (std::uint64_t{0} - static_cast<std::uint64_t>(dim.st));
        }
        n = n * dim.range + k;
    }
    out = n;
    return n < d.iterations;
}

// OMPT: the dependences event of a source or sink, its iteration per dimension
// normalised as libomp reports it (kmp_csupport.cpp). `vec` is within the loop.
void report(const doacross_loop& d, const kmp_int64* vec, ompt_dependence_type_t type) {
    std::vector<std::uint64_t> k(static_cast<std::size_t>(d.ndims));
    for (int i = 0; i < d.ndims; ++i) {
        const doacross_dim& dim = d.dims[i];
        const auto v = static_cast<std::uint64_t>(vec[i]);
        const auto lo = static_cast<std::uint64_t>(dim.lo);
        k[static_cast<std::size_t>(i)] = dim.st > 0 ? (v - lo) / static_cast<std::uint64_t>(dim.st)
                                                    : (lo - v) / (std::uint64_t{0} - static_cast<std::uint64_t>(dim.st));
    }
    ompt::doacross_dependences(type, k.data(), d.ndims);
}

// The doacross loop the calling member is in, or null (team of one, no loop).
doacross_loop* current_loop(implicit_task* it, member_slot*& me) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return nullptr;
    me = &t->slots[it->tid];
    if (!me->doacross) return nullptr;
    doacross_loop* d = me->doacross->doacross.load(std::memory_order_acquire);
    return d && !d->unchecked ? d : nullptr;
}

// Waits until `bit` of `word` is set: spin briefly, yield for the spin budget, sleep.
void wait_posted(doacross_loop& d, const std::atomic<std::uint64_t>& word, std::uint64_t bit,
                 sleeper& s) {
    auto done = [&word, bit] { return (word.load(std::memory_order_seq_cst) & bit) != 0; };
    const long budget = current_spin_budget_us();
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0;; ++i) {
        if (done()) return;
        if (i < 128) {
            spin_pause();
            continue;
        }
        // The poster may be a member waiting for this CPU (4 threads on 2 cores).
        std::this_thread::yield();
        if (budget >= 0 && (i & 15) == 0 &&
            std::chrono::steady_clock::now() - start > std::chrono::microseconds(budget))
            break;
    }
    d.sleepers.fetch_add(1, std::memory_order_seq_cst);
    sleep_until([](const void* f) { return (*static_cast<const decltype(done)*>(f))(); },
                &done, s);
    d.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace

void doacross_begin(implicit_task* it, int ndims, const kmp_dim* dims) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return;
    const std::uint32_t k = it->ws_count++;
    dispatch_buffer& b = ring_buffer(t, k);
    if (enter_buffer(t, k)) {
        // The previous loop's last member may not have taken its state out yet: whoever
        // takes a pointer out of the buffer frees it.
        free_doacross(b.doacross.exchange(make_loop(ndims, dims), std::memory_order_acq_rel));
        publish_buffer(b, k);
    }
    t->slots[it->tid].doacross = &b;
}

void doacross_wait(implicit_task* it, const kmp_int64* vec) {
    member_slot* me = nullptr;
    doacross_loop* d = current_loop(it, me);
    std::uint64_t n;
    if (!d || !vec || !iteration_of(*d, vec, n)) return;
    const std::atomic<std::uint64_t>& word = d->flags[n / 64];
    const std::uint64_t bit = std::uint64_t{1} << (n % 64);
    if ((word.load(std::memory_order_acquire) & bit) == 0) wait_posted(*d, word, bit, me->sleep);
    // libomp reports a sink once its wait is over.
    if (ompt::on()) [[unlikely]]
        report(*d, vec, ompt_dependence_type_sink);
}

void doacross_post(implicit_task* it, const kmp_int64* vec) {
    member_slot* me = nullptr;
    doacross_loop* d = current_loop(it, me);
    std::uint64_t n;
    if (!d || !vec || !iteration_of(*d, vec, n)) return;
    if (ompt::on()) [[unlikely]]
        report(*d, vec, ompt_dependence_type_source);
    std::atomic<std::uint64_t>& word = d->flags[n / 64];
    const std::uint64_t bit = std::uint64_t{1} << (n % 64);
    if ((word.load(std::memory_order_relaxed) & bit) != 0) return;
    word.fetch_or(bit, std::memory_order_seq_cst);
    if (d->sleepers.load(std::memory_order_seq_cst) == 0) return;
    team* t = it->tm;
    for (int i = 0; i < it->nthreads; ++i)
        if (i != it->tid) wake(t->slots[i].sleep);
}

void doacross_end(implicit_task* it) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return;
    member_slot& me = t->slots[it->tid];
    dispatch_buffer* b = me.doacross;
    if (!b) return;  // fini without init
    me.doacross = nullptr;
    // Read before leaving: once every member left, a new claimer may replace it.
    doacross_loop* d = b->doacross.load(std::memory_order_acquire);
    if (!leave_buffer(*b, it->nthreads)) return;
    if (b->doacross.compare_exchange_strong(d, nullptr, std::memory_order_acq_rel))
        free_doacross(d);
}

}  // namespace loom::omp
