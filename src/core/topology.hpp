// The machine as the scheduler sees it: one place (a set of OS processors) per worker,
// and for each worker the other workers ordered nearest first (same core group, then
// same NUMA domain, then the rest), from the hwloc topology restricted to the CPUs this
// process may use.
#pragma once

#include <memory>
#include <vector>

namespace loom::core {

class topology {
public:
    /// Builds places for `workers` workers. Never fails: without hwloc information it
    /// falls back to one place per allowed CPU in id order.
    explicit topology(unsigned workers);
    /// Builds places for `workers` workers over the given CPUs (a pool growing while it
    /// runs: the calling worker may be bound, so its own mask says nothing).
    topology(unsigned workers, std::vector<unsigned> cpus);
    ~topology();
    topology(const topology&) = delete;
    topology& operator=(const topology&) = delete;

    [[nodiscard]] const std::vector<unsigned>& place(unsigned worker) const { return places_[worker]; }
    /// Other workers, nearest first.
    [[nodiscard]] const std::vector<unsigned>& victims(unsigned worker) const { return victims_[worker]; }
    [[nodiscard]] unsigned places_count() const noexcept { return static_cast<unsigned>(places_.size()); }
    /// The CPUs the places were built from.
    [[nodiscard]] const std::vector<unsigned>& cpus() const noexcept { return cpus_; }
    /// Binds the calling thread to `worker`'s place. Returns false if the OS refused.
    bool bind_current_thread(unsigned worker) const;

private:
    struct hw;
    std::unique_ptr<hw> hw_;
    std::vector<unsigned> cpus_;
    std::vector<std::vector<unsigned>> places_;
    std::vector<std::vector<unsigned>> victims_;
};

}  // namespace loom::core
