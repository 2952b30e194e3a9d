#include "timer_heap.hpp"

#include <mutex>
#include <new>

namespace loom::core {

timer_heap::timer_heap() {
    // Room for the common case, so that arming rarely allocates under the lock.
    heap_.reserve(256);
}

timer_heap::arm_result timer_heap::arm(timer_entry& e, bool (*publish)(void*), void* arg) noexcept {
    std::lock_guard g(lock_);
    try {
        heap_.push_back(&e);
    } catch (const std::bad_alloc&) {
        return arm_result::no_memory;
    }
    if (!publish(arg)) {
        heap_.pop_back();
        return arm_result::declined;
    }
    const std::int64_t before = earliest();
    place(heap_.size() - 1, &e);
    sift_up(e.index);
    publish_earliest();
    return e.deadline < before ? arm_result::earliest : arm_result::armed;
}

void timer_heap::cancel(timer_entry& e) noexcept {
    std::lock_guard g(lock_);
    if (e.index == timer_entry::not_queued) return;
    erase_at(e.index);
    publish_earliest();
}

timer_entry* timer_heap::take_due(std::int64_t now) noexcept {
    timer_entry* fired = nullptr;
    std::lock_guard g(lock_);
    while (!heap_.empty() && heap_.front()->deadline <= now) {
        timer_entry* e = heap_.front();
        erase_at(0);
        if (e->expire(e)) {
            e->next_fired = fired;
            fired = e;
        }
    }
    publish_earliest();
    return fired;
}

void timer_heap::erase_at(std::size_t i) noexcept {
    timer_entry* gone = heap_[i];
    gone->index = timer_entry::not_queued;
    timer_entry* last = heap_.back();
    heap_.pop_back();
    if (last == gone) return;
    place(i, last);
    // The entry moved into the hole may belong above or below it.
    sift_up(i);
    sift_down(last->index);
}

void timer_heap::sift_up(std::size_t i) noexcept {
    timer_entry* e = heap_[i];
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (heap_[parent]->deadline <= e->deadline) break;
        place(i, heap_[parent]);
        i = parent;
    }
    place(i, e);
}

void timer_heap::sift_down(std::size_t i) noexcept {
    timer_entry* e = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && heap_[child + 1]->deadline < heap_[child]->deadline) ++child;
        if (e->deadline <= heap_[child]->deadline) break;
        place(i, heap_[child]);
        i = child;
    }
    place(i, e);
}

}  // namespace loom::core
