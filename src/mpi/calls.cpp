#include "calls.hpp"
#include "request_poller.hpp"

#include <mpi.h>

#include <atomic>
#include <string>

#include "loom/mpi.hpp"

namespace loom::mpi::impl {

namespace {

std::atomic<int> g_level{-1};  // -1: not checked yet
ext::spin_lock g_calls;

const char* level_name(int level) {
    switch (level) {
        case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
        case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
        case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
        case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
        default: return "an unknown thread level";
    }
}

}  // namespace

void require_usable_mpi() {
    if (g_level.load(std::memory_order_acquire) >= 0) return;
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    if (!initialised || finalised) {
        throw error(MPI_ERR_OTHER, finalised ? "MPI is already finalised"
                                             : "MPI is not initialised (create a loom::mpi::environment, or call "
                                               "MPI_Init_thread with MPI_THREAD_MULTIPLE first)");
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (provided < minimum_thread_level) {
        throw error(MPI_ERR_OTHER,
                    std::string("MPI provides ") + level_name(provided) +
                        ", but loom::mpi needs at least MPI_THREAD_SERIALIZED: its requests are completed by "
                        "whichever loom worker is idle, and workers are separate threads (initialise MPI "
                        "with MPI_THREAD_MULTIPLE)");
    }
    // LOOM_MPI_POLL_US is read (and a bad value reported) at first use, not only when a
    // request first waits: a program whose requests all complete at once must still
    // hear about a malformed value.
    (void)poll_interval();
    g_level.store(provided, std::memory_order_release);
}

int provided_level() noexcept { return g_level.load(std::memory_order_acquire); }

bool serialized() noexcept { return g_level.load(std::memory_order_relaxed) < MPI_THREAD_MULTIPLE; }

ext::spin_lock& calls_mutex() noexcept { return g_calls; }

void forget_level() noexcept { g_level.store(-1, std::memory_order_release); }

}  // namespace loom::mpi::impl

namespace loom::mpi {

// The level is read when the lock is taken: a call_lock taken before loom::mpi first
// checked it serialises (the safe side) and releases what it took.
call_lock::call_lock() : held_(impl::serialized()) {
    if (held_) impl::calls_mutex().lock();
}

call_lock::~call_lock() {
    if (held_) impl::calls_mutex().unlock();
}

}  // namespace loom::mpi

namespace loom::mpi::detail {

void require_usable_mpi() { impl::require_usable_mpi(); }

}  // namespace loom::mpi::detail
