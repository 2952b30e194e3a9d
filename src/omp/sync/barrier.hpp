// Team barrier and the gather/release pair used by reductions and barrier_master.
#pragma once

#include <cstdint>

namespace loom::omp {

struct implicit_task;

/// Full barrier of `it`'s team (no-op for a team of one). A task scheduling point.
void team_barrier(implicit_task* it);
/// team_barrier that also ends when the team's parallel region is cancelled: false if
/// the member left because of that (the others then leave too, as they reach a
/// cancellation point: nobody waits for the arrivals missing). The canceller wakes the
/// waiters (request_cancel). Only for barriers that are cancellation points. A member
/// that passed reads the team's cancel_at_barrier: the cancellation request at the
/// moment the last member arrived.
bool team_barrier_unless_cancelled(implicit_task* it);

/// Gather: members other than 0 arrive and return the release epoch to wait for;
/// member 0 waits until all others arrived and returns 0.
std::uint32_t gather(implicit_task* it);
/// Member 0 releases the members that gathered.
void release_gathered(implicit_task* it);
/// A member other than 0 waits for release_gathered (epoch from gather()).
void wait_released(implicit_task* it, std::uint32_t epoch);

/// Split barrier (barrier_master): member 0 returns true once everybody arrived, runs
/// its block and releases the others with split_barrier_end; the others return false
/// after that release. A team of one returns true.
bool split_barrier_begin(implicit_task* it);
void split_barrier_end(implicit_task* it);

}  // namespace loom::omp
