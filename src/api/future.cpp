// The non-template parts of the futures: the ready event and waiting on a state.
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

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

static_assert(alignof(callback_node) >= 8 && alignof(ext::task) >= 8,
              "event entries leave the three low bits of their address to the tags");

std::uintptr_t event::wait_unguarded() const noexcept {
    unsigned spins = 0;
    for (;;) {
        const std::uintptr_t v = head_.load(std::memory_order_acquire);
        if ((v & guard_bit) == 0) return v;
        // A remover walks the list for a few steps, but may be preempted.
        if (++spins < 64) {
            cpu_relax();
        } else {
            std::this_thread::yield();
        }
    }
}

// The successful CAS is the last access to the event (a waiter may free it right after);
// after it only the taken entries are touched, each link read before the entry is run.
// A CAS, not an exchange: the list must not be taken while a remover holds it.
void event::set() noexcept {
    std::uintptr_t v = 0;  // the common guess: nothing registered
    while (!head_.compare_exchange_weak(v, set_mark, std::memory_order_acq_rel, std::memory_order_relaxed)) {
        if ((v & guard_bit) != 0) v = wait_unguarded();
    }
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

// A waiter that timed out must take its node (on this frame) off the list before it
// returns; if set() has taken the list already, the node's fire() is on its way and the
// waiter collects it, so that nothing touches the node after the return.
bool event::wait_until(std::chrono::steady_clock::time_point deadline) noexcept {
    if (is_set()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    waiter_node w;
    if (!add(&w)) return true;
    if (w.slot.wait_until(deadline) || !remove(&w)) {
        w.slot.wait();  // returns at once when wait_until saw the notification
        return true;
    }
    return false;
}

namespace {

// The link an entry of the list holds to the entry registered before it (a task keeps
// it, tagged, in its intrusive `next`).
ext::task* as_task(std::uintptr_t entry) noexcept { return reinterpret_cast<ext::task*>(entry & ~event::task_tag); }
std::uintptr_t link_of(std::uintptr_t entry) noexcept {
    if ((entry & event::task_tag) != 0) return reinterpret_cast<std::uintptr_t>(as_task(entry)->next);
    return reinterpret_cast<callback_node*>(entry)->next;
}
void set_link(std::uintptr_t entry, std::uintptr_t link) noexcept {
    if ((entry & event::task_tag) != 0) {
        as_task(entry)->next = reinterpret_cast<ext::task*>(link);
    } else {
        reinterpret_cast<callback_node*>(entry)->next = link;
    }
}

}  // namespace

bool event::remove(callback_node* n) noexcept {
    std::uintptr_t head = head_.load(std::memory_order_acquire);
    for (;;) {
        if (head == set_mark) return false;
        if ((head & guard_bit) != 0) {
            head = wait_unguarded();
            continue;
        }
        if (head_.compare_exchange_weak(head, head | guard_bit, std::memory_order_acquire,
                                        std::memory_order_acquire))
            break;
    }
    const auto target = reinterpret_cast<std::uintptr_t>(n);
    bool found = false;
    if (head == target) {
        head = n->next;
        found = true;
    } else {
        for (std::uintptr_t e = head; e != 0; e = link_of(e)) {
            if (link_of(e) == target) {
                set_link(e, n->next);
                found = true;
                break;
            }
        }
    }
    head_.store(head, std::memory_order_release);
    LOOM_CHECK_USAGE(found, "event::remove: the entry is not registered");
    return found;
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

// No inline run of the producer here: it could take longer than the caller allows. A
// producer still queued on this worker runs there while the waiter is parked.
bool state_base::wait_until(std::chrono::steady_clock::time_point deadline) noexcept {
    return is_ready() || ready_.wait_until(deadline);
}

}  // namespace loom::detail
