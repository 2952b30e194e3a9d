// Which worker runs an explicit task that a worker took from a queue: its own when it
// is a member of the task's team, else a member's (runner_for), which the taking worker
// holds the task for meanwhile.
#pragma once

#include "loom/ext/task.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {

/// The implicit task of `tm` that worker `w` runs as a member of the team's current
/// region, or null: `w` is not a member, or its member has not begun that region yet
/// (member_slot::begun; until then its tasks must not run there as that member).
implicit_task* member_on(team* tm, int w) noexcept;
/// Member `i` of `tm` began the team's current region (read after taking a task of it).
inline bool member_began(const team* tm, int i) noexcept {
    return tm->slots[i].begun.load(std::memory_order_relaxed) ==
           tm->region_epoch.load(std::memory_order_relaxed);
}
/// Returns `rec`, which this worker took (pop_team_task marked it to run here), to
/// this worker's deque unmarked: whoever takes it next decides where it runs.
inline void put_back(ext::task* rec) noexcept {
    rec->flags &= static_cast<std::uint8_t>(~f_bounced);
    ext::push_local(rec);
}
/// Whether `rec` may run on worker `w` without asking anyone (runner_for can wait).
bool runs_here(ext::task* rec, int w) noexcept;

/// runner_for's answer when a member took the task or was sent it, or the task went
/// back on the caller's deque for its member that has not begun the region: it is no
/// longer the caller's to run now.
inline constexpr int handed_to_member = -2;
/// The worker that runs `rec`, which worker `w` took from the scheduler: `w`, another
/// worker (the caller submits it to that worker's mailbox), or handed_to_member.
int runner_for(ext::task* rec, int w) noexcept;

}  // namespace loom::omp::tasking
