// Tasks that workers outside their team hold for a member (runner_for in task_runner.cpp),
// published where a member at a taskyield finds a child of its running task (as on
// libomp, where only the team's threads take its tasks, so the yielding thread finds
// its children in its own queue). Members waiting in a barrier do not look here: one
// that took a held task at every spin round made 8 pthreads x 500 regions of 2 with
// tasks (tests/omp/oversub_small_teams.c) ten times slower; the holder sends them
// their tasks.
//
// A holder that sends its task on to a member's mailbox sends a token instead, which
// takes the task when it runs unless a member took it first: so the task stays
// visible until it starts, wherever it waits. The table is process-wide (a token may
// run after its team is gone, once a member ran the task) and small: a holder that
// finds no free entry keeps its task unpublished and sends the task itself.
#pragma once

#include "loom/ext/task.hpp"
#include "parallel/team.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking::held {

/// A task this worker holds for its team, published while the object lives.
class publication {
public:
    publication(const team* tm, ext::task* rec) noexcept;
    ~publication();
    publication(const publication&) = delete;
    publication& operator=(const publication&) = delete;

    /// Hides the task from takers, so that it stays ours while the holder reads its
    /// team (a member that takes it may end the region, and the team go): false if a
    /// member took it first. An unpublished task is always ours.
    [[nodiscard]] bool hide() noexcept;
    /// Publishes the hidden task again.
    void show() noexcept;
    /// Takes the task back to run or submit it here: false if a member took it first.
    [[nodiscard]] bool withdraw() noexcept;
    /// Sends the task on to `worker`'s mailbox as a token, the task staying published
    /// until the token runs: true if sent (or taken meanwhile): the task is no longer
    /// ours. False if it is not published or no token could be had: submit it as is.
    [[nodiscard]] bool send_token(unsigned worker) noexcept;

private:
    int entry_ = -1;
    ext::task* rec_;
};

/// A published task of team `tm` whose parent is `parent`, now the caller's to run;
/// null if none.
ext::task* take(const team* tm, const node* parent) noexcept;

/// In the child of fork(): the holders were threads of the parent; their entries name
/// tasks that will never run here.
void reset_after_fork() noexcept;

}  // namespace loom::omp::tasking::held
