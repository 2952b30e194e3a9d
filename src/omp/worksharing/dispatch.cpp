// Dynamic worksharing loops and ordered: the team's ring of loop buffers, a member's
// loop set-up, chunks beyond the inline per-chunk path (dispatch_loop.hpp), ordered turns.
//
// Loops are normalised to iterations 0..trip-1. Each loop a member begins gets the
// member's next construct number k; the team's buffer k % dispatch_count serves it
// (KMP_DISP_NUM_BUFFERS, default 8).
// The first member to arrive claims the buffer (CAS on `claimed`, after every member
// finished the loop that used it before) and publishes it with `ready`; the others
// wait for `ready`. Monotonic dynamic chunks are one fetch_add on `next`; guided chunks
// a CAS. Nonmonotonic dynamic loops (clang's default for schedule(dynamic) since
// OpenMP 5.0) give each member a share of the chunks that it takes from with a CAS on
// its own line, and a member whose share ran out steals half of another's (as libomp's
// static_steal): no line is shared per chunk while the shares last.
// Static kinds need no shared state unless the loop is ordered.
#include <algorithm>
#include <type_traits>

#include "abi.hpp"
#include "worksharing/dispatch.hpp"
#include "worksharing/dispatch_loop.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

using namespace dispatch_detail;

namespace {

// libomp's extension kind of omp_sched_t (kmp.h kmp_sched_trapezoidal), which
// OMP_SCHEDULE=trapezoidal selects there; served here like guided (decreasing chunks).
constexpr int kmp_sched_trapezoidal = 101;

// schedule(runtime): run-sched-var as a schedule kind; `chunk` becomes its chunk.
int runtime_kind(const sched_icv& r, std::int64_t& chunk) {
    chunk = r.chunk;
    switch (r.kind) {
        case omp_sched_dynamic: return sch_dynamic_chunked;
        case omp_sched_guided: return sch_guided_chunked;
        case kmp_sched_trapezoidal: return sch_trapezoidal;
        case omp_sched_auto: return sch_auto;
        default: return chunk > 0 ? sch_static_chunked : sch_static;
    }
}

// schedule(simd:runtime) (kmp_sch_runtime_simd): the compiler passes the simd width as
// the chunk. As libomp's __kmp_dispatch_init_algorithm: static without a chunk and auto
// become static_balanced_chunked (blocks rounded to the width); other kinds take
// run-sched-var's chunk (at least 1) times the width, guided becoming guided_simd.
int runtime_simd_kind(const sched_icv& r, std::int64_t& chunk) {
    const std::int64_t width = chunk < 1 ? 1 : chunk;
    const std::int64_t per = r.chunk < 1 ? 1 : r.chunk;
    switch (r.kind) {
        case omp_sched_dynamic: chunk = per * width; return sch_dynamic_chunked;
        case omp_sched_guided:
        case kmp_sched_trapezoidal: chunk = per * width; return sch_guided_simd;
        case omp_sched_static:
            if (r.chunk > 0) {
                chunk = per * width;
                return sch_static_chunked;
            }
            [[fallthrough]];
        default: chunk = width; return sch_static_balanced_chunked;
    }
}

void resolve(implicit_task* it, kmp_int32 schedule, std::int64_t chunk, loop_state& L) {
    bool nonmonotonic = (schedule & sch_modifier_nonmonotonic) != 0;
    // schedule(monotonic: runtime), and every gcc loop (gomp_abi.hpp kmpc_schedule):
    // the modifier wins over run-sched-var's.
    const bool monotonic = (schedule & sch_modifier_monotonic) != 0;
    int s = base_schedule(schedule, &L.ordered);
    if (s == sch_runtime) {
        s = runtime_kind(it->icv.sched, chunk);
        nonmonotonic = it->icv.sched.nonmonotonic && !monotonic;
    }
    else if (s == sch_runtime_simd) s = runtime_simd_kind(it->icv.sched, chunk);
    switch (s) {
        case sch_static_chunked:
            L.kind = k_chunked;
            break;
        case sch_static_balanced_chunked:
            L.kind = k_block_rounded;
            break;
        case sch_static:
        case sch_static_greedy:
        case sch_static_balanced:
            L.kind = chunk > 0 && s != sch_static ? k_chunked : k_block;
            break;
        case sch_dynamic_chunked:
            L.kind = nonmonotonic && !L.ordered ? k_steal : k_dynamic;
            break;
        case sch_static_steal:
            L.kind = L.ordered || monotonic ? k_dynamic : k_steal;
            break;
        case sch_guided_simd:
            L.kind = k_guided_simd;
            break;
        default:  // guided kinds, trapezoidal, auto
            L.kind = k_guided;
            break;
    }
    L.chunk = chunk < 1 ? 1 : static_cast<std::uint64_t>(chunk);
}

// Looked up once per loop (acquire_buffer): every chunk then reads the pointer, not the
// ring index (a division by the ring size, KMP_DISP_NUM_BUFFERS).
dispatch_buffer& buffer_of(team* t, const loop_state& L) {
    return L.buf ? *L.buf : ring_buffer(t, L.construct);
}

bool needs_buffer(const loop_state& L) {
    return L.kind == k_dynamic || L.kind == k_guided || L.kind == k_guided_simd ||
           L.kind == k_steal || L.ordered;
}

// A member's balanced share of a stealing loop's chunks, set up by the member itself on
// its own line: the claimer writing every member's share cost each loop a line
// transfer per member before the others could start.
void take_share(dispatch_buffer& b, const loop_state& L, std::uint64_t tid, std::uint64_t n) {
    const std::uint64_t chunks = (L.trip + L.chunk - 1) / L.chunk;
    const std::uint64_t small = chunks / n, extras = chunks % n;
    const std::uint64_t lo = tid * small + std::min(tid, extras);
    chunk_range& mine = b.ranges[tid];
    mine.v.store(pack_range(lo, lo + small + (tid < extras ? 1 : 0)), std::memory_order_relaxed);
    // Thieves look at a share only once it names this loop.
    mine.loop.store(L.construct + 1, std::memory_order_release);
}

void acquire_buffer(team* t, loop_state& L) {
    L.buf = &ring_buffer(t, L.construct);
    if (!enter_buffer(t, L.construct)) return;
    dispatch_buffer& b = buffer_of(t, L);
    b.next.store(0, std::memory_order_relaxed);
    b.ord_next.store(0, std::memory_order_relaxed);
    b.trip = L.trip;
    b.chunk = L.chunk;
    b.kind = L.kind;
    if (L.kind == k_steal && !b.ranges)
        b.ranges = new chunk_range[static_cast<std::size_t>(t->capacity)];
    publish_buffer(b, L.construct);
}

template <class T, class ST>
void begin_loop(implicit_task* it, kmp_int32 schedule, T lb, T ub, ST st, ST chunk) {
    using U = std::make_unsigned_t<T>;
    loop_state& L = it->loop;
    L = loop_state{};
    resolve(it, schedule, static_cast<std::int64_t>(chunk), L);
    if (st > 0) {
        L.trip = ub < lb ? 0
                         : static_cast<std::uint64_t>((static_cast<U>(ub) - static_cast<U>(lb)) /
                                                      static_cast<U>(st)) + 1;
    } else if (st < 0) {
        U step = static_cast<U>(U{0} - static_cast<U>(st));
        L.trip = lb < ub ? 0
                         : static_cast<std::uint64_t>((static_cast<U>(lb) - static_cast<U>(ub)) /
                                                      step) + 1;
    } else {
        L.trip = 1;
    }
    L.lb = static_cast<std::uint64_t>(static_cast<U>(lb));
    L.st = static_cast<std::int64_t>(st);
    L.construct = it->ws_count++;
    if (!it->tm || it->nthreads == 1) return;
    // Shares count chunks in 32 bits; a loop with more chunks than that takes chunks
    // from the shared counter instead.
    if (L.kind == k_steal && (L.trip + L.chunk - 1) / L.chunk >= (std::uint64_t{1} << 32))
        L.kind = k_dynamic;
    if (!needs_buffer(L)) return;
    acquire_buffer(it->tm, L);
    if (L.kind == k_steal)
        take_share(*L.buf, L, static_cast<std::uint64_t>(it->tid),
                   static_cast<std::uint64_t>(it->nthreads));
    if (!L.ordered && (L.kind == k_dynamic || L.kind == k_guided || L.kind == k_steal))
        L.shared_kind = static_cast<std::uint8_t>(L.kind);
}

void finish(implicit_task* it, loop_state& L) {
    if (L.kind == k_done) return;
    const bool had_buffer = it->tm && it->nthreads > 1 && needs_buffer(L);
    L.kind = k_done;
    L.shared_kind = 0;
    if (had_buffer) leave_buffer(buffer_of(it->tm, L), it->nthreads);
}

// schedule(simd:guided) (kmp_sch_guided_simd), as libomp: while at least 2n(chunk+1)
// iterations remain, take remaining/2n rounded up to a multiple of the chunk (the simd
// width), so every chunk but the loop's last is a multiple of it; then chunk-sized pieces.
bool next_guided_simd(dispatch_buffer& b, std::uint64_t trip, std::uint64_t chunk,
                      std::uint64_t n, std::uint64_t& begin, std::uint64_t& end) {
    std::uint64_t cur = b.next.load(std::memory_order_relaxed);
    for (;;) {
        if (cur >= trip) return false;
        const std::uint64_t rem = trip - cur;
        if (rem < 2 * n * (chunk + 1)) {
            begin = b.next.fetch_add(chunk, std::memory_order_relaxed);
            if (begin >= trip) return false;
            end = std::min(begin + chunk, trip);
            return true;
        }
        const std::uint64_t size = (rem / (2 * n) + chunk - 1) / chunk * chunk;
        if (b.next.compare_exchange_weak(cur, cur + size, std::memory_order_relaxed)) {
            begin = cur;
            end = cur + size;
            return true;
        }
    }
}

// Hands out the next chunk [begin, end) of normalised iterations; false when done.
bool next_chunk(implicit_task* it, std::uint64_t& begin, std::uint64_t& end) {
    loop_state& L = it->loop;
    if (L.kind == k_done) return false;
    if (it->tm && it->tm->cancel_request.load(std::memory_order_relaxed) == cancel_loop)
        return false;
    const std::uint64_t trip = L.trip;
    if (!it->tm || it->nthreads == 1) {
        if (L.serial_done || trip == 0) return false;
        L.serial_done = true;
        if (L.ordered || L.kind == k_dynamic || L.kind == k_guided || L.kind == k_chunked) {
            // Keep chunk boundaries so that ordered and nomerge kinds behave alike.
            begin = 0;
            end = trip;
            return true;
        }
        begin = 0;
        end = trip;
        return true;
    }
    const std::uint64_t n = static_cast<std::uint64_t>(it->nthreads);
    const std::uint64_t tid = static_cast<std::uint64_t>(it->tid);
    switch (L.kind) {
        case k_block: {
            if (L.next_static++ != 0) return false;
            const std::uint64_t small = trip / n, extras = trip % n;
            begin = tid * small + std::min(tid, extras);
            end = begin + small + (tid < extras ? 1 : 0);
            return begin < end;
        }
        case k_block_rounded: {
            if (L.next_static++ != 0) return false;
            const std::uint64_t block = ((trip + n - 1) / n + L.chunk - 1) / L.chunk * L.chunk;
            if (block != 0 && tid >= (trip + block - 1) / block) return false;
            begin = tid * block;
            end = std::min(begin + block, trip);
            return true;
        }
        case k_chunked: {
            const std::uint64_t idx = tid + L.next_static++ * n;
            if (idx >= (trip + L.chunk - 1) / L.chunk) return false;
            begin = idx * L.chunk;
            end = std::min(begin + L.chunk, trip);
            return true;
        }
        case k_dynamic: {
            dispatch_buffer& b = buffer_of(it->tm, L);  // as next(): one RMW, no load
            begin = b.next.fetch_add(L.chunk, std::memory_order_relaxed);
            if (begin >= trip) return false;
            end = std::min(begin + L.chunk, trip);
            return true;
        }
        case k_guided:
            return next_guided(buffer_of(it->tm, L), trip, L.chunk, n, begin, end);
        case k_guided_simd:
            return next_guided_simd(buffer_of(it->tm, L), trip, L.chunk, n, begin, end);
        case k_steal: {
            std::uint64_t c = 0;
            if (!next_share(buffer_of(it->tm, L).ranges, tid, n, L.construct + 1, trip, L.chunk,
                            c))
                return false;
            begin = c * L.chunk;
            end = std::min(begin + L.chunk, trip);
            return true;
        }
        default:
            return false;
    }
}

void finish_ordered_chunk(implicit_task* it) {
    loop_state& L = it->loop;
    if (!L.ordered) return;
    if (!L.ordered_done) {
        ordered_enter(it);
        ordered_exit(it);
    }
    ++L.cur_iter;
    L.ordered_done = false;
}

// dist_dispatch: the team's block of the iteration space, then a normal loop on it.
template <class T, class ST>
void dist_begin_loop(implicit_task* it, kmp_int32 schedule, kmp_int32* plast, T lb, T ub, ST st,
                     ST chunk) {
    using U = std::make_unsigned_t<T>;
    std::uint64_t trip;
    if (st > 0) trip = ub < lb ? 0 : (static_cast<U>(ub) - static_cast<U>(lb)) / static_cast<U>(st) + 1;
    else if (st < 0) trip = lb < ub ? 0 : (static_cast<U>(lb) - static_cast<U>(ub)) / static_cast<U>(U{0} - static_cast<U>(st)) + 1;
    else trip = 1;
    const std::uint64_t n = static_cast<std::uint64_t>(it->num_teams);
    const std::uint64_t id = static_cast<std::uint64_t>(it->team_num);
    if (plast) *plast = 1;
    if (trip != 0 && n > 1) {
        const std::uint64_t small = trip / n, extras = trip % n;
        const std::uint64_t begin = id * small + std::min(id, extras);
        const std::uint64_t count = small + (id < extras ? 1 : 0);
        if (plast) *plast = count != 0 && begin + count == trip;
        if (count == 0) {
            ub = static_cast<T>(static_cast<U>(lb) - static_cast<U>(st));  // empty
        } else {
            lb = static_cast<T>(static_cast<U>(lb) + static_cast<U>(begin) * static_cast<U>(st));
            ub = static_cast<T>(static_cast<U>(lb) + static_cast<U>(count - 1) * static_cast<U>(st));
        }
    }
    begin_loop<T, ST>(it, schedule, lb, ub, st, chunk);
}

}  // namespace

dispatch_buffer& ring_buffer(team* t, std::uint32_t construct) noexcept {
    return t->dispatch[construct % t->dispatch_count];
}

bool enter_buffer(team* t, std::uint32_t construct) {
    dispatch_buffer& b = ring_buffer(t, construct);
    const std::uint32_t want = construct + 1;
    const std::uint32_t n = static_cast<std::uint32_t>(t->nthreads);
    for (unsigned spins = 0;; ++spins) {
        std::uint32_t c = b.claimed.load(std::memory_order_acquire);
        if (c == want) break;
        if (c == 0 || b.finished.load(std::memory_order_acquire) >= n) {
            if (b.claimed.compare_exchange_strong(c, want, std::memory_order_acq_rel)) {
                b.finished.store(0, std::memory_order_relaxed);
                return true;
            }
            continue;
        }
        pause_then_yield(spins, long_spins);
    }
    spin_until([&] { return b.ready.load(std::memory_order_acquire) == want; });
    return false;
}

void publish_buffer(dispatch_buffer& b, std::uint32_t construct) noexcept {
    b.ready.store(construct + 1, std::memory_order_release);
}

bool leave_buffer(dispatch_buffer& b, int nthreads) noexcept {
    return b.finished.fetch_add(1, std::memory_order_acq_rel) + 1 ==
           static_cast<std::uint32_t>(nthreads);
}

dispatch_buffer::~dispatch_buffer() {
    free_doacross(doacross.load(std::memory_order_relaxed));
    delete[] ranges;
}

void reset_dispatch(dispatch_buffer* ring, unsigned count) noexcept {
    for (unsigned i = 0; i < count; ++i) {
        dispatch_buffer& b = ring[i];
        if (b.claimed.load(std::memory_order_relaxed) == 0) continue;
        b.claimed.store(0, std::memory_order_relaxed);
        b.ready.store(0, std::memory_order_relaxed);
        b.finished.store(0, std::memory_order_relaxed);
        // A doacross loop some member never finished (its region ended early).
        free_doacross(b.doacross.exchange(nullptr, std::memory_order_relaxed));
    }
}

void abandon_loop(implicit_task* it) { finish(it, it->loop); }

void ordered_enter(implicit_task* it) {
    loop_state& L = it->loop;
    if (!it->tm || it->nthreads == 1 || !L.ordered || L.kind == k_done) return;
    dispatch_buffer& b = buffer_of(it->tm, L);
    const std::uint64_t mine = L.cur_iter;
    // The turn passes from member to member at every iteration: spin only briefly, then
    // yield, so that the member whose turn it is gets the CPU when members outnumber cores.
    spin_until([&b, mine] { return b.ord_next.load(std::memory_order_acquire) == mine; },
               short_spins);
}

void ordered_exit(implicit_task* it) {
    loop_state& L = it->loop;
    L.ordered_done = true;
    if (!it->tm || it->nthreads == 1 || !L.ordered || L.kind == k_done) return;
    buffer_of(it->tm, L).ord_next.store(L.cur_iter + 1, std::memory_order_release);
}

// ---- the loop API (dispatch_loop.hpp) ---------------------------------------------

template <class T, class ST>
void dispatch_init(implicit_task* it, kmp_int32 schedule, T lb, T ub, ST st, ST chunk) {
    begin_loop<T, ST>(it, schedule, lb, ub, st, chunk);
}

template <class T, class ST>
void dist_dispatch_init(implicit_task* it, kmp_int32 schedule, kmp_int32* plast, T lb, T ub,
                        ST st, ST chunk) {
    dist_begin_loop<T, ST>(it, schedule, plast, lb, ub, st, chunk);
}

void dispatch_fini(implicit_task* it) { finish_ordered_chunk(it); }

namespace dispatch_detail {

// A share not yet set up for this loop (its owner has not arrived) counts as empty.
bool steal_chunk(chunk_range* ranges, std::uint64_t tid, std::uint64_t n, std::uint32_t loop,
                 std::uint64_t& chunk_index) {
    for (std::uint64_t k = 1; k < n; ++k) {
        chunk_range& victim = ranges[(tid + k) % n];
        if (victim.loop.load(std::memory_order_acquire) != loop) continue;
        std::uint64_t v = victim.v.load(std::memory_order_relaxed);
        for (;;) {
            const std::uint64_t lo = v & 0xffffffffu, hi = v >> 32;
            if (lo >= hi) break;
            const std::uint64_t cut = hi - (hi - lo + 1) / 2;
            if (victim.v.compare_exchange_weak(v, pack_range(lo, cut), std::memory_order_relaxed)) {
                // The caller's own share is empty, and no thief changes an empty share.
                ranges[tid].v.store(pack_range(cut + 1, hi), std::memory_order_relaxed);
                chunk_index = cut;
                return true;
            }
        }
    }
    return false;
}

template <class T, class ST>
int next_general(implicit_task* it, kmp_int32* plast, T* plb, T* pub, ST* pst) {
    loop_state& L = it->loop;
    std::uint64_t begin = 0, end = 0;
    if (!next_chunk(it, begin, end)) {
        finish(it, L);
        return 0;
    }
    L.cur_iter = begin;
    L.chunk_end = end;
    L.ordered_done = false;
    return hand_out(L, begin, end, plast, plb, pub, pst);
}

int finish_loop(implicit_task* it) {
    finish(it, it->loop);
    return 0;
}

}  // namespace dispatch_detail

// The four integer pairs of the kmpc entry points (and of the GOMP ones on top of them).
#define LOOM_DISPATCH_INSTANCES(T, ST)                                                          \
    template void dispatch_init<T, ST>(implicit_task*, kmp_int32, T, T, ST, ST);                \
    template void dist_dispatch_init<T, ST>(implicit_task*, kmp_int32, kmp_int32*, T, T, ST, ST); \
    template int dispatch_detail::next_general<T, ST>(implicit_task*, kmp_int32*, T*, T*, ST*);
LOOM_DISPATCH_INSTANCES(kmp_int32, kmp_int32)
LOOM_DISPATCH_INSTANCES(kmp_uint32, kmp_int32)
LOOM_DISPATCH_INSTANCES(kmp_int64, kmp_int64)
LOOM_DISPATCH_INSTANCES(kmp_uint64, kmp_int64)
#undef LOOM_DISPATCH_INSTANCES

}  // namespace loom::omp
