// Intrusive FIFO of waiting contexts for the sync primitives. A node lives on the
// waiter's stack, which is safe because the waiter stays parked (or blocked) until it
// is notified; the notifier unlinks the node (under the primitive's guard) before it
// notifies, and reads nothing of the node afterwards.
//
// Timed waits: a waiter whose deadline passed takes the guard and removes its node if
// it is still `queued`. If it is not, a notifier has unlinked it and its notification
// is on the way: the waiter collects it (slot.wait()) before its frame goes, and the
// wait counts as satisfied (the notifier may have handed it a unit or the lock).
// `queued` is cleared under the guard by every way out of the queue (pop, take_all,
// remove), so it answers that question exactly.
#pragma once

#include <cstddef>

#include "loom/ext/scheduler.hpp"

namespace loom::detail {

struct wait_node {
    wait_node* next = nullptr;
    wait_node* prev = nullptr;
    bool queued = false;  // guarded, as the queue
    ext::wait_slot slot;
};

class wait_queue {
public:
    [[nodiscard]] bool empty() const noexcept { return head_ == nullptr; }
    void push(wait_node* n) noexcept {
        n->next = nullptr;
        n->prev = tail_;
        n->queued = true;
        if (tail_ != nullptr) {
            tail_->next = n;
        } else {
            head_ = n;
        }
        tail_ = n;
    }
    wait_node* pop() noexcept {
        wait_node* n = head_;
        if (n != nullptr) {
            unlink(n);
            n->next = nullptr;
        }
        return n;
    }
    /// Unlinks everything; returns the old list (linked through next).
    wait_node* take_all() noexcept {
        wait_node* n = head_;
        for (wait_node* i = n; i != nullptr; i = i->next) i->queued = false;
        head_ = tail_ = nullptr;
        return n;
    }
    /// Unlinks `n` if it is still queued; false if a notifier has taken it.
    bool remove(wait_node* n) noexcept {
        if (!n->queued) return false;
        unlink(n);
        return true;
    }

private:
    void unlink(wait_node* n) noexcept {
        if (n->prev != nullptr) {
            n->prev->next = n->next;
        } else {
            head_ = n->next;
        }
        if (n->next != nullptr) {
            n->next->prev = n->prev;
        } else {
            tail_ = n->prev;
        }
        n->queued = false;
    }

    wait_node* head_ = nullptr;
    wait_node* tail_ = nullptr;
};

/// Notifies every node of an unlinked list (reading each link before notifying).
inline void notify_list(wait_node* n) noexcept {
    while (n != nullptr) {
        wait_node* next = n->next;
        n->slot.notify();
        n = next;
    }
}

}  // namespace loom::detail
