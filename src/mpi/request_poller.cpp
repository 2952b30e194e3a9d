#include "request_poller.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "calls.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/mpi.hpp"

namespace loom::mpi::impl {

namespace {

constexpr long default_interval_us = 100;

// LOOM_MPI_POLL_US: how often a sleeping pool wakes to poll, and how often a busy
// worker polls between tasks, while requests are pending.
// As the other LOOM_* variables: empty means unset, surrounding spaces are ignored.
std::chrono::microseconds read_poll_interval() {
    const char* raw = std::getenv("LOOM_MPI_POLL_US");
    std::string text = raw ? raw : "";
    const auto first = text.find_first_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(" \t") - first + 1);
    if (text.empty()) return std::chrono::microseconds(default_interval_us);
    char* end = nullptr;
    errno = 0;
    const long us = std::strtol(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || us < 1 || us > 1'000'000 || !std::isdigit(static_cast<unsigned char>(text[0]))) {
        std::fprintf(stderr,
                     "loom: warning: LOOM_MPI_POLL_US='%s' is not a number of microseconds (1 to 1000000); "
                     "using %ld\n",
                     raw, default_interval_us);
        return std::chrono::microseconds(default_interval_us);
    }
    return std::chrono::microseconds(us);
}

}  // namespace

std::chrono::microseconds poll_interval() {
    static const std::chrono::microseconds interval = read_poll_interval();
    return interval;
}

request_poller& poller() noexcept {
    static request_poller instance;
    return instance;
}

MPI_Status empty_status() noexcept {
    MPI_Status s;
    std::memset(&s, 0, sizeof s);
    s.MPI_SOURCE = MPI_ANY_SOURCE;
    s.MPI_TAG = MPI_ANY_TAG;
    s.MPI_ERROR = MPI_SUCCESS;
    return s;
}

int test_once(MPI_Request request, MPI_Status& status, bool& complete) noexcept {
    status = empty_status();
    complete = true;
    if (request == MPI_REQUEST_NULL) return MPI_SUCCESS;
    int flag = 0;
    call_lock lock;
    const int rc = MPI_Test(&request, &flag, &status);
    complete = flag != 0;
    return rc;
}

int request_poller::ensure_registered() {
    int id = id_.load(std::memory_order_acquire);
    if (id >= 0) return id;
    std::lock_guard lk(registration_);
    id = id_.load(std::memory_order_relaxed);
    if (id >= 0) return id;
    ext::ensure_started();
    id = ext::add_idle_poller(&request_poller::poll_entry, this, poll_interval());
    if (id < 0) throw error(MPI_ERR_OTHER, "the scheduler has no idle poller place left for MPI requests");
    id_.store(id, std::memory_order_release);
    return id;
}

void request_poller::detach() noexcept {
    std::lock_guard lk(registration_);
    const int id = id_.exchange(-1, std::memory_order_acq_rel);
    if (id >= 0) ext::remove_idle_poller(id);
}

// Counted before it is visible, so pending() never reads 0 while a request waits.
void request_poller::add(node* n, MPI_Request request, std::uint64_t span) {
    const int id = ensure_registered();
    n->request = request;
    n->span = span;
    added_.fetch_add(1, std::memory_order_relaxed);
    node* head = incoming_.load(std::memory_order_relaxed);
    do {
        n->next = head;
    } while (!incoming_.compare_exchange_weak(head, n, std::memory_order_release, std::memory_order_relaxed));
    ext::idle_poller_pending(id);
}

bool request_poller::poll_entry(void* self) noexcept { return static_cast<request_poller*>(self)->poll(); }

// The arrays grow before the nodes join them: if memory runs out, the nodes go back
// to the queue (the caller polls again later) rather than being lost. The stack is
// LIFO; the nodes join in the order they were handed over.
void request_poller::take_incoming() {
    node* taken = incoming_.exchange(nullptr, std::memory_order_acquire);
    node* in_order = nullptr;
    node* last = taken;
    std::size_t count = 0;
    for (node* n = taken; n != nullptr; ++count) {
        node* next = n->next;
        n->next = in_order;
        in_order = n;
        n = next;
    }
    const std::size_t size = requests_.size() + count;
    try {
        requests_.reserve(size);
        nodes_.reserve(size);
        indices_.resize(size);
        statuses_.resize(size);
    } catch (...) {
        node* head = incoming_.load(std::memory_order_relaxed);
        do {
            last->next = head;
        } while (!incoming_.compare_exchange_weak(head, in_order, std::memory_order_release, std::memory_order_relaxed));
        throw;
    }
    for (node* n = in_order; n != nullptr; n = n->next) {
        requests_.push_back(n->request);
        nodes_.push_back(n);
    }
}

bool request_poller::poll() noexcept {
    if (incoming_.load(std::memory_order_relaxed) != nullptr) {
        try {
            take_incoming();
        } catch (...) {
            return true;  // no memory to grow the arrays now: the requests wait in the queue
        }
    }
    if (cancel_.load(std::memory_order_acquire)) cancel_all();
    if (!requests_.empty()) test_some();
    return !requests_.empty() || incoming_.load(std::memory_order_relaxed) != nullptr;
}

// Under MPI_THREAD_SERIALIZED the poller only tries the lock: a worker never waits
// for another thread's MPI call, it polls again at its next idle round.
void request_poller::test_some() noexcept {
    const bool serial = serialized();
    if (serial && !calls_mutex().try_lock()) return;
    const int n = static_cast<int>(requests_.size());
    int count = MPI_UNDEFINED;
    int rc = MPI_Testsome(n, requests_.data(), &count, indices_.data(), statuses_.data());
    // An MPI_Testsome that finds nothing complete progresses MPI once and returns
    // without looking again (Open MPI's ompi_request_default_test_some): what that
    // progress completed (typically the message this worker waits for) would be seen
    // only a whole idle round later. A second call sees it at once, and costs only a
    // scan of the requests when it finds something (a further progress when not).
    if (rc == MPI_SUCCESS && count == 0)
        rc = MPI_Testsome(n, requests_.data(), &count, indices_.data(), statuses_.data());
    if (serial) calls_mutex().unlock();
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) {
        test_each(rc);
    } else if (count == MPI_UNDEFINED) {
        // Only null or inactive (persistent, not started) requests: complete at once.
        for (std::size_t i = 0; i < requests_.size(); ++i) complete(i, empty_status(), MPI_SUCCESS);
    } else if (count == 0) {
        return;  // the common idle round: nothing to remove
    } else {
        // MPI_ERR_IN_STATUS: each completed request's status says whether it failed
        // (MPI sets the error field of every status it returns then).
        for (int k = 0; k < count; ++k) {
            const MPI_Status& st = statuses_[static_cast<std::size_t>(k)];
            complete(static_cast<std::size_t>(indices_[static_cast<std::size_t>(k)]), st,
                     rc == MPI_SUCCESS ? MPI_SUCCESS : st.MPI_ERROR);
        }
    }
    remove_completed();
}

// MPI_Testsome failed without saying which request: ask each one. A request the
// failed call freed already (null now) had the error.
void request_poller::test_each(int failed_rc) noexcept {
    const bool serial = serialized();
    if (serial) calls_mutex().lock();
    for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (requests_[i] == MPI_REQUEST_NULL) {
            complete(i, empty_status(), failed_rc);
            continue;
        }
        int flag = 0;
        MPI_Status st = empty_status();
        const int rc = MPI_Test(&requests_[i], &flag, &st);
        if (rc != MPI_SUCCESS) complete(i, st, rc);
        else if (flag) complete(i, st, MPI_SUCCESS);
    }
    if (serial) calls_mutex().unlock();
}

void request_poller::cancel_all() noexcept {
    const bool serial = serialized();
    if (serial) calls_mutex().lock();
    for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (requests_[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&requests_[i]);
            MPI_Request_free(&requests_[i]);
        }
    }
    if (serial) calls_mutex().unlock();
    for (std::size_t i = 0; i < requests_.size(); ++i) complete(i, empty_status(), MPI_ERR_PENDING);
    remove_completed();
}

// Counted complete before done() delivers it: whoever sees the delivery (a ready
// future, a receiver's code) also sees the request no longer pending. drain() may then
// end while done() runs; detach() waits for this poll to return. The node is not
// touched after done(): its owner may reuse or destroy it at once.
void request_poller::complete(std::size_t i, const MPI_Status& status, int code) noexcept {
    node* n = nodes_[i];
    if (n == nullptr) return;
    nodes_[i] = nullptr;
    mpi::detail::trace_request_end(n->span, code);
    const char* where = code == MPI_ERR_PENDING && cancel_.load(std::memory_order_relaxed)
                            ? "request still pending when the loom::mpi::environment ended; cancelled"
                            : "request completed with an error";
    completed_.store(completed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    n->done(n, code, status, where);
}

// Completed entries leave the arrays (order does not matter to MPI_Testsome).
void request_poller::remove_completed() noexcept {
    std::size_t keep = 0;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (nodes_[i] == nullptr) continue;
        requests_[keep] = requests_[i];
        nodes_[keep] = nodes_[i];
        ++keep;
    }
    requests_.resize(keep);
    nodes_.resize(keep);
}

void request_poller::drain(std::chrono::milliseconds timeout) {
    const int id = id_.load(std::memory_order_acquire);
    if (id < 0) return;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pending() > 0) {
        ext::poll_now(id);
        if (pending() == 0) break;
        if (std::chrono::steady_clock::now() >= deadline && !cancel_.exchange(true, std::memory_order_acq_rel)) {
            std::fprintf(stderr,
                         "loom: warning: loom::mpi::environment ends with %zu MPI request%s still pending after "
                         "%lld ms; cancelling them\n",
                         pending(), pending() == 1 ? "" : "s", static_cast<long long>(timeout.count()));
        }
        std::this_thread::yield();
    }
    cancel_.store(false, std::memory_order_release);
}

}  // namespace loom::mpi::impl
