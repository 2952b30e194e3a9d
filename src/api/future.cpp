// The non-template parts of the futures: the ready event and waiting on a state.
#include <cstdio>
#include <cstdlib>
#include <future>

#include "loom/detail/config.hpp"
#include "loom/detail/event.hpp"
#include "loom/detail/shared_state.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

void misuse(const char* what) noexcept {
    std::fprintf(stderr, "loom: API misuse: %s\n", what);
    std::abort();
}

void throw_future_error(std::future_errc code) { throw std::future_error(code); }

// The exchange is the last access to the event (a waiter may free it right after); after it
// only the taken entries are touched, each link read before the entry is run.
void event::set() noexcept {
    std::uintptr_t v = head_.exchange(set_mark, std::memory_order_acq_rel);
    LOOM_CHECK_USAGE(v != set_mark, "a future's shared state (or a latch) was set twice");
    while (v != 0) {
        if ((v & task_tag) != 0) {
            ext::task* t = reinterpret_cast<ext::task*>(v & ~task_tag);
            v = reinterpret_cast<std::uintptr_t>(t->next);
            t->next = nullptr;
            ext::submit(t);
        } else {
            callback_node* n = reinterpret_cast<callback_node*>(v);
            v = n->next;
            n->fire(n);
        }
    }
}

void event::wait() noexcept {
    waiter_node w;
    if (!add(&w)) return;
    w.slot.wait();
}

// A task waiting for an async result first tries to run the producing task inline if
// it is still on top of this worker's deque (the common case of a fine-grained
// recursion: nothing stole it). `producer` may be stale -- the task may have run and
// its record been reused -- but then it cannot be on top of our deque: every record
// in our deque was pushed by this worker, so a reuse would have been allocated after
// the producer finished, i.e. after the state became ready, and the is_ready() check
// before (ordered by the free list and our own program order) would have returned.
void state_base::wait() noexcept {
    if (is_ready()) return;
    if (producer != nullptr && ext::run_if_on_top(producer) && is_ready()) return;
    ready_.wait();
}

}  // namespace loom::detail
