// What the first member of a team to reach a gcc worksharing construct makes for the
// whole team (its task-reduction descriptors, its `mem` block), found by the others
// through the construct's number in the team, and dropped by the last member to leave.
//
// libgomp keeps such things in the construct's work share (work.c). Constructs with
// `nowait`, and scopes nested in one another, leave several constructs of one team
// active at a time, so each has an entry of its own; entries live from the first
// arrival to the last departure, so the table holds a few per team: a vector is enough.
#pragma once

#include <cstdint>

namespace loom::omp::gomp {

/// What is shared: one construct may have both (GOMP_loop_start with reductions and mem).
enum class share_kind : std::uint8_t { task_reductions, mem_block };

/// Publishes `value` for construct `construct` of `key` (a team, or a thread for a team
/// of one), which `members` members will leave; `id` names the entry when they do.
void share_publish(share_kind kind, const void* key, std::uint32_t construct, void* value,
                   std::uintptr_t id, int members);
/// The `kind` value published for `construct` of `key`, waiting until its first member
/// has published it.
void* share_await(share_kind kind, const void* key, std::uint32_t construct);
/// A member leaves the construct whose entry is `id`; true for the last one, which
/// then owns what was published.
bool share_leave(const void* key, std::uintptr_t id);

}  // namespace loom::omp::gomp
