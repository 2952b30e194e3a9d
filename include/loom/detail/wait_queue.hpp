// Intrusive FIFO of waiting contexts for the sync primitives. A node lives on the
// waiter's stack, which is safe because the waiter stays parked (or blocked) until it
// is notified; the notifier unlinks the node (under the primitive's guard) before it
// notifies, and reads nothing of the node afterwards.
#pragma once

#include <cstddef>

#include "loom/ext/scheduler.hpp"

namespace loom::detail {

struct wait_node {
    wait_node* next = nullptr;
    ext::wait_slot slot;
};

class wait_queue {
public:
    [[nodiscard]] bool empty() const noexcept { return head_ == nullptr; }
    void push(wait_node* n) noexcept {
        n->next = nullptr;
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
            head_ = n->next;
            if (head_ == nullptr) tail_ = nullptr;
        }
        return n;
    }
    /// Unlinks everything; returns the old list (linked through next).
    wait_node* take_all() noexcept {
        wait_node* n = head_;
        head_ = tail_ = nullptr;
        return n;
    }

private:
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
