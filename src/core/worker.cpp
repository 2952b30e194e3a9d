#include "worker.hpp"

#include <algorithm>
#include <chrono>
#include <sched.h>
#include <utility>

#include "fence.hpp"
#include "pool.hpp"

namespace loom::core {

__thread worker* t_worker = nullptr;

namespace {
constexpr unsigned max_cached_fibers = 16;
constexpr unsigned max_high_streak = 64;  // try_get: the starvation bound
constexpr std::int64_t max_steal_batch = 32;  // steal_half_of: tasks per visit beyond the first
constexpr auto prio_index(priority p) { return static_cast<unsigned>(p); }
}  // namespace

worker* this_worker() noexcept { return t_worker; }
void set_this_worker(worker* w) noexcept { t_worker = w; }

worker::worker(pool& p, unsigned i)
    : owner(p), index(i), rng(0x9E3779B97F4A7C15ULL * (i + 1)), spin(p.cfg.spin_us * 1000) {}

worker::~worker() {
    for (fiber* f : fiber_cache) fiber::destroy(f);
    records.release_all();
}

fiber* worker::take_fiber() noexcept {
    if (!fiber_cache.empty()) {
        fiber* f = fiber_cache.back();
        fiber_cache.pop_back();
        return f;
    }
    fiber* f = fiber::create(owner.cfg.stack_size);
    if (f) counters.fibers_created.add();
    return f;
}

void worker::give_back(fiber* f) noexcept {
    if (fiber_cache.size() < max_cached_fibers) {
        fiber_cache.push_back(f);
    } else {
        fiber::destroy(f);
    }
}

ext::task* worker::steal_from_victims(priority p) noexcept {
    const unsigned workers = owner.size();
    for (unsigned v : owner.victims(index)) {
        if (v >= workers) continue;  // named by a growth that has not started it (yet)
        auto& victim = owner.at(v).local_deque(p);
        if (ext::task* t = victim.steal()) {
            counters.steals.add();
            const std::uint64_t extra = p == priority::normal ? steal_half_of(victim) : 0;
            counters.tasks_stolen.add(1 + extra);
            // Work left behind: pass the wake-up on (pushes onto a non-empty deque wake
            // nobody; sleep.md), once for each deque that holds some. One wake-up for
            // both would leave one of them unwatched when the worker it reaches empties
            // the other (this thread may run a long task next). Both are counted before
            // either wake-up: the worker the first one reaches may empty the victim
            // before a later look, and the batch here would then have no wake-up at all.
            const unsigned deques_left_with_work = (extra != 0) + !victim.looks_empty();
            for (unsigned k = 0; k < deques_left_with_work; ++k) owner.wake_one();
            return t;
        }
    }
    return nullptr;
}

// Steal-half (Hendler and Shavit, "Non-blocking steal-half work queues", PODC 2002): a
// row of ready tasks that sits on one worker's deque (the successors a task released,
// a loop's spawned bodies) moves to a thief in one visit, log2(n) visits for n tasks,
// instead of one steal, one search and one cross-core miss on the victim's indices per
// task. The extra tasks are taken by single Chase-Lev steals, each linearisable on its
// own: a batch claim (one CAS of top by k) would race with the owner's pops, which do
// not CAS unless they take the last item. Up to half of what the victim has left, so
// the victim keeps the other half; at most max_steal_batch, so one visit stays short.
std::uint64_t worker::steal_half_of(chase_lev_deque<ext::task*>& victim) noexcept {
    const std::int64_t want = std::min<std::int64_t>(victim.size_hint() / 2, max_steal_batch);
    std::uint64_t taken = 0;
    for (std::int64_t k = 0; k < want; ++k) {
        ext::task* t = victim.steal();
        if (t == nullptr) break;
        local_deque(priority::normal).push(t);
        ++taken;
    }
    return taken;
}

// Order: tied work first (it holds stacks and other workers may wait for it), then
// the task the last one released to run next here (keep_next), then
// the pool's high-priority tasks, highest level first; then the local deque, foreign
// submissions, victims, and low priority last.
//
// No starvation: after max_high_streak (64) high-priority tasks in a row a worker takes
// one task from its own normal deque, if it has one, before the next high one. So
// a stream of high-priority tasks (a critical path that keeps releasing critical
// successors) delays a worker's normal work by at most that many tasks, and the
// normal work of idle workers not at all (they take high work only when it exists).
ext::task* worker::try_get() noexcept {
    if (ext::task* t = box.pop()) {
        // Tied work first, but the task kept to run next must not wait behind it where
        // no other worker can take it (tied work may run long, or spin until that task
        // has run): queued, it is announced and can be stolen.
        queue_kept();
        return t;
    }
    if (next_in_line != nullptr) return std::exchange(next_in_line, nullptr);
    if (owner.high.maybe_nonempty()) {
        if (high_streak >= max_high_streak) {
            if (ext::task* t = local_deque(priority::normal).pop()) {
                high_streak = 0;
                return t;
            }
        }
        if (ext::task* t = owner.high.pop()) {
            ++high_streak;
            return t;
        }
    }
    high_streak = 0;
    if (ext::task* t = local_deque(priority::normal).pop()) return t;
    if (ext::task* t = owner.injection[prio_index(priority::normal)].pop()) return t;
    if (ext::task* t = steal_from_victims(priority::normal)) return t;
    if (ext::task* t = local_deque(priority::low).pop()) return t;
    if (ext::task* t = owner.injection[prio_index(priority::low)].pop()) return t;
    if (ext::task* t = steal_from_victims(priority::low)) return t;
    counters.failed_steals.add();
    return nullptr;
}

// Not a high-priority task, nor a normal one while high-priority work waits: those
// go through the queues, where the priority order is kept.
bool worker::keep_as_next(ext::task* t) noexcept {
    if (next_in_line != nullptr || t->prio != priority::normal) return false;
    if (owner.high.maybe_nonempty()) return false;
    next_in_line = t;
    return true;
}

void worker::queue_kept() noexcept {
    if (next_in_line != nullptr)
        owner.wake_after_push(local_deque(priority::normal).push(std::exchange(next_in_line, nullptr)));
}

// Seq-cst loads: paired with the fence in pool::wake_one(), so that either the
// sleeper sees the new work here or the pusher sees the sleeper (sleep.md).
bool worker::anything_visible() noexcept {
    if (box.has_incoming() || !box.looks_empty()) return true;
    if (!owner.high.looks_empty()) return true;
    for (auto& q : owner.injection)
        if (!q.looks_empty()) return true;
    for (auto& d : deques)
        if (!d.looks_empty()) return true;
    const unsigned workers = owner.size();
    for (unsigned v : owner.victims(index)) {
        if (v >= workers) continue;
        for (auto& d : owner.at(v).deques)
            if (!d.looks_empty()) return true;
    }
    return false;
}

// One sleeping worker at a time watches the timers and the idle pollers: it sleeps no
// longer than the earliest deadline or the pollers' next call, the others until woken.
// The claim comes before the fence and both are read after it (timers.md,
// idle_pollers.md: pool::deadline_armed is the other half). True when the sleep
// ended by that deadline rather than by a waker.
bool worker::sleep() noexcept {
    wake_requested_ns.store(0, std::memory_order_relaxed);  // before a waker can see us asleep
    sleep_word.store(1, std::memory_order_seq_cst);
    owner.sleepers.fetch_add(1, std::memory_order_seq_cst);
    int unclaimed = -1;
    const int me = static_cast<int>(index);
    const bool watching = owner.timer_watcher.compare_exchange_strong(unclaimed, me, std::memory_order_seq_cst);
    full_fence();
    const std::int64_t due = watching ? std::min(owner.timers.earliest(), pollers().next_due()) : timer_heap::none;
    bool timed_out = false;
    if (anything_visible() || (owner.stopping.load(std::memory_order_seq_cst) && !owner.is_adopted(*this)) ||
        (due != timer_heap::none && due <= steady_now_ns())) {
        sleep_word.store(0, std::memory_order_relaxed);
    } else {
        owner.check_drained();
        counters.sleeps.add();
        timed_out = sleep_until(due);
    }
    if (watching) owner.timer_watcher.store(-1, std::memory_order_seq_cst);
    owner.sleepers.fetch_sub(1, std::memory_order_relaxed);
    return timed_out;
}

// Until a waker swaps sleep_word to 0 (false), or `due` (steady nanoseconds) passes (true).
bool worker::sleep_until(std::int64_t due) noexcept {
    while (sleep_word.load(std::memory_order_acquire) == 1) {
        if (due == timer_heap::none) {
            futex_wait(&sleep_word, 1);
            continue;
        }
        const std::int64_t left = due - steady_now_ns();
        if (left <= 0) {
            // Woken by the deadline, not by a waker: leave as a woken worker would.
            sleep_word.store(0, std::memory_order_relaxed);
            return true;
        }
        futex_wait_for(&sleep_word, 1, static_cast<long>(left));
    }
    return false;
}

// The doorbell is a hint or a hand-off. A pusher that sees it listening rings it
// (wake_one: the worker rescans at once instead of after the rest of its pauses), or
// hands it a task (pool::hand_off: the task never enters a deque). Nothing depends on
// a ring for correctness -- a spinning worker scans every queue each round, and one
// that stops spinning to sleep first stops listening, then runs the sleep protocol's
// fence and rescan; a task handed in is taken by the exchange that stops listening,
// so none is left behind (sleep.md, "Spinning workers").
void worker::start_listening() noexcept {
    doorbell.store(listening, std::memory_order_relaxed);
    owner.spinners.fetch_add(1, std::memory_order_relaxed);
}

// Before the fence of sleep(), when it goes to sleep: a pusher whose fence comes
// later sees it as a sleeper, not as a spinner. Acquire: a handed-in task's record
// was written before the pusher's release CAS. Returns the word it held: `rung`, or
// a task (above `rung`), or `listening`.
std::uintptr_t worker::stop_listening() noexcept {
    const std::uintptr_t v = doorbell.exchange(not_listening, std::memory_order_acquire);
    owner.spinners.fetch_sub(1, std::memory_order_relaxed);
    if (v > rung) counters.handoffs.add();
    return v;
}

ext::task* worker::handed_task(std::uintptr_t word) noexcept {
    return word > rung ? reinterpret_cast<ext::task*>(word) : nullptr;
}

// The pause between two scans, cut short by a ring or a hand-off: the doorbell's line
// stays in this core's cache until a pusher writes it, so watching it costs no
// traffic. True if rung or handed a task (the caller rescans or takes it).
bool worker::pause_for_doorbell(unsigned pauses) noexcept {
    for (unsigned i = 0; i < pauses; ++i) {
        cpu_relax();
        if (answer_doorbell()) return true;
    }
    return false;
}

// Only a pusher moves the word away from listening, only this worker back.
bool worker::answer_doorbell() noexcept {
    const std::uintptr_t v = doorbell.load(std::memory_order_relaxed);
    if (v == listening) return false;
    if (v == rung) {
        doorbell.store(listening, std::memory_order_relaxed);
        rescan_owed = true;  // cleared by the next try_get of the spin
        counters.rings.add();
    }
    return true;  // rung (now listening again) or holding a task for stop_listening
}

// Stops listening when the spin found `t` (or null): a task handed in meanwhile goes
// to this worker's deque behind `t`, where thieves see it, or is the one returned.
//
// A ring stands for a push onto an empty queue that the pusher woke nobody else for:
// the rung worker owes the pool one full rescan after it. A ring still pending here
// (it came during or after the last rescan), or one answered but not yet followed by a
// rescan (a hand-off arrived first), is a rescan this worker will not make: it leaves
// with a task. So it passes the wake-up on, as a thief does for work it leaves behind.
// Dropping it loses work: two pushes ring this worker, it takes one task, and the
// other sits queued while the sleepers sleep -- until this worker's task ends, never if
// that task waits for the other one (sleep.md, "Spinning workers").
ext::task* worker::found_while_listening(ext::task* t) noexcept { return settle_doorbell(stop_listening(), t); }

// `word`: what stop_listening() found in the doorbell.
ext::task* worker::settle_doorbell(std::uintptr_t word, ext::task* t) noexcept {
    ext::task* handed = handed_task(word);
    if (word == rung || rescan_owed) {
        rescan_owed = false;
        owner.wake_one();
    }
    if (!handed) return t;
    if (!t) return handed;
    owner.wake_after_push(local_deque(handed->prio).push(handed));
    return t;
}

// What a poll completed (a continuation, a resumed waiter) is taken at once rather than
// after the spin's pause: it is what the pool was waiting for. A poll that happened
// also stands in for most of the pause, so a completion is seen sooner (`polled`).
ext::task* worker::poll_idle(std::int64_t now, bool& polled) noexcept {
    if (!pollers().active() || !pollers().poll(now, /*idle=*/true)) return nullptr;
    polled = true;
    ext::task* t = try_get();
    if (t) owner.keep_timers_watched();
    return t;
}

// Past its spin budget, one idle worker goes on spinning while an idle poller has work
// pending: MPI's own waits poll without pause, and a worker that slept instead would
// see a completion only at the poller's interval -- two ranks that both sleep then
// answer each other one interval (100 us) per message. Not when spinning is off
// (budget 0: the user asked for passive waits).
bool worker::keep_polling(std::int64_t budget_ns, int me) noexcept {
    return budget_ns > 0 && pollers().active() && owner.claim_poll_spinner(me);
}

// Idle pollers are called between tasks when due, at every empty round of the spin,
// and by the watcher each time its deadline wakes it (idle_pollers.md).
ext::task* worker::find_work() noexcept {
    // First look without the clock: a worker that finishes a task usually finds the
    // next one at once (its own deque, a released successor), and a clock read costs
    // 20-40 ns there -- 9 % of a dependent OpenMP task's time on a 2-core VM. The
    // clock is needed only to serve due timers, to call idle pollers when due and to
    // bound the spin, so it is read only when a timer or a poller is registered or
    // this first look finds nothing.
    //
    // A worker whose own deque is empty is about to steal or to go idle: it listens
    // from here on, so that a task released while it looks around (in a balanced
    // dependence graph its partner releases the next step just then) is handed to it
    // rather than left for its steal. A worker with tasks of its own does not touch the
    // shared `spinners` line.
    bool listening_now = false;
    if (owner.timers.earliest() == timer_heap::none && !pollers().active() &&
        !owner.abandoned.load(std::memory_order_acquire)) {
        // A task kept to run next (keep_next): this worker is not idle, so it does not
        // listen -- two read-modify-writes on the shared `spinners` line per task of a
        // chain, which the kept task saves over a queued one otherwise. try_get takes
        // mailbox work first if there is some (and queues the kept task then).
        if (next_in_line != nullptr) {
            ext::task* t = try_get();
            owner.keep_timers_watched();
            return t;
        }
        if (local_deque(priority::normal).looks_empty()) {
            start_listening();
            listening_now = true;
        }
        if (ext::task* t = try_get()) {
            owner.keep_timers_watched();
            return listening_now ? found_while_listening(t) : t;
        }
    }
    using clock = std::chrono::steady_clock;
    const auto idle_since = clock::now();
    bool slept = false;
    const int me = static_cast<int>(index);
    struct spinner_release {
        pool& p;
        int me;
        ~spinner_release() { p.release_poll_spinner(me); }
    } release_on_return{owner, me};
    auto found = [&](ext::task* t) {
        owner.keep_timers_watched();
        if (owner.cfg.spin_adaptive)
            spin.record(idle_period_ns(steady_ns(idle_since), steady_now_ns(), slept,
                                       wake_requested_ns.load(std::memory_order_relaxed)),
                        slept);
        return t;
    };
    for (;;) {
        const auto budget = std::chrono::nanoseconds(
            owner.cfg.spin_adaptive ? spin.budget_ns : owner.cfg.spin_us * 1000);
        auto start = clock::now();
        std::int64_t now_ns = steady_ns(start);  // refreshed every 16 rounds
        owner.serve_timers(now_ns);
        pollers().poll(now_ns, /*idle=*/false);
        // Listening while spinning, not while asleep: every way out of the spin below
        // stops listening first and takes what was handed in meanwhile.
        if (!listening_now) start_listening();
        listening_now = false;  // from here, every way out stops listening
        for (unsigned round = 0;; ++round) {
            // Exit gave up on the work in flight: start nothing more (queued tasks could
            // read destroyed globals) and do not leave either — a thread that ended now
            // would run its thread-exit destructors beside the program's static ones.
            if (owner.abandoned.load(std::memory_order_acquire)) {
                // A task handed in is abandoned with the rest, but stays referenced:
                // dropped, LeakSanitizer reported its record (a member task of a
                // region that exit() was called inside, ~1 run in 10).
                abandoned_handoff = handed_task(stop_listening());
                owner.hold_forever();
            }
            rescan_owed = false;  // this try_get is the rescan a ring asked for
            if (ext::task* t = try_get()) return found(found_while_listening(t));
            bool polled = false;
            if (ext::task* t = poll_idle(now_ns, polled)) return found_while_listening(t);
            // Not only before sleeping: with a long spin budget (KMP_BLOCKTIME=1000 gives
            // 1 s) the drain at exit or pause would wait that long for its last check.
            if (owner.drain_pending()) owner.check_drained();
            // An adopted slot 0 never leaves on stop: its thread is parked waiting.
            if (owner.stopping.load(std::memory_order_acquire) && !owner.is_adopted(*this))
                return found_while_listening(nullptr);  // null unless handed a task
            // Oversubscribed: the thread that will make work (or that others wait for)
            // may be queued behind this one on its CPU; give the CPU away every round.
            const bool give_up = owner.oversubscribed();
            bool answered = false;
            if (give_up) {
                sched_yield();
                answered = answer_doorbell();
            } else {
                answered = pause_for_doorbell(polled ? 4 : 32);  // rescan or take at once
            }
            if (answered && doorbell.load(std::memory_order_relaxed) > rung)
                return found(found_while_listening(nullptr));
            if (give_up || (round & 15) == 15) {
                const auto now = clock::now();
                now_ns = steady_ns(now);
                owner.serve_timers(now_ns);
                if (now - start >= budget && !keep_polling(budget.count(), me)) break;
                if ((round & 255) == 255) sched_yield();
            }
        }
        owner.release_poll_spinner(me);
        // A ring pending or owed needs nothing more when this worker goes on to sleep():
        // it rescans after its fence. Not when a hand-off takes it away instead.
        const std::uintptr_t word = stop_listening();
        if (handed_task(word)) return found(settle_doorbell(word, nullptr));
        rescan_owed = false;
        // A watcher woken by its deadline serves it and looks once, then sleeps again
        // without another spin: an idle poller with work pending would otherwise keep
        // a worker spinning a budget per interval.
        slept = true;
        while (sleep()) {
            if (owner.abandoned.load(std::memory_order_acquire)) owner.hold_forever();
            const std::int64_t now = steady_now_ns();
            owner.serve_timers(now);
            pollers().poll(now, /*idle=*/true);
            if (ext::task* t = try_get()) return found(t);
        }
    }
}

}  // namespace loom::core
