// GOMP teams on the host (libgomp teams.c, target.c): GOMP_teams_reg forks a host league
// through fork_league, as clang's; GOMP_teams4 (a teams construct in a target region run on the
// host) and the old GOMP_teams run in the calling task.
#include <climits>
#include <vector>

#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"
#include "parallel/fork.hpp"

namespace loom::omp::gomp {
namespace {

kmp_int32 clamp(unsigned v) { return v > INT_MAX ? INT_MAX : static_cast<kmp_int32>(v); }

// What GOMP_teams4 changed in the task that runs the teams one after another, restored
// after the last team. Teams constructs nest only through target regions, so a stack per
// thread (the task does not leave its thread between the calls: no scheduling point
// separates GOMP_teams4's calls from the team bodies' ends... a body that suspends still
// resumes in its tied task) is enough.
struct saved_teams {
    implicit_task* task;
    int team_num, num_teams, thread_limit;
    bool in_league;
};
thread_local std::vector<saved_teams>* t_saved = nullptr;

std::vector<saved_teams>& saved() {
    if (!t_saved) t_saved = new std::vector<saved_teams>;
    return *t_saved;
}

bool first_team(unsigned low, unsigned thread_limit) {
    implicit_task* it = current_task();
    saved().push_back({it, it->team_num, it->num_teams, it->icv.thread_limit, it->in_league});
    if (thread_limit) it->icv.thread_limit = clamp(thread_limit);
    it->num_teams = low == 0 ? 1 : clamp(low);
    it->team_num = 0;
    it->in_league = true;
    return true;
}

bool next_team() {
    implicit_task* it = current_task();
    if (it->team_num + 1 < it->num_teams) {
        ++it->team_num;
        return true;
    }
    if (!saved().empty()) {
        const saved_teams s = saved().back();
        saved().pop_back();
        s.task->team_num = s.team_num;
        s.task->num_teams = s.num_teams;
        s.task->icv.thread_limit = s.thread_limit;
        s.task->in_league = s.in_league;
    }
    return false;
}

}  // namespace
}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// teams.c (OpenMP 5.0 host teams): the league of num_teams (0: default) teams with at most
// thread_limit (0: default) threads each. libgomp runs the teams one after another on the
// initial thread; loom forks them as clang's host teams, on workers.
LOOM_OMP_API void GOMP_teams_reg(body_fn fn, void* data, unsigned num_teams,
                                 unsigned thread_limit, unsigned /*flags: unused, teams.c*/) {
    push_num_teams(0, clamp(num_teams), clamp(thread_limit));
    void* args[2] = {fn_arg(fn), data};
    fork_league(microtask_entry(), 2, args);
}

// teams.c: gcc loops `for (first = true; GOMP_teams4 (lo, hi, tl, first); first = false)
// body;` and the calling thread runs every team: num_teams_low of them (at least one).
LOOM_OMP_API bool GOMP_teams4(unsigned num_teams_low, unsigned /*num_teams_high*/,
                              unsigned thread_limit, bool first) {
    return first ? first_team(num_teams_low, thread_limit) : next_team();
}

// target.c (GOMP 4.0, a teams construct in a target region run on the host): only the
// thread limit takes effect; the body runs once.
LOOM_OMP_API void GOMP_teams(unsigned /*num_teams*/, unsigned thread_limit) {
    if (thread_limit) current_task()->icv.thread_limit = clamp(thread_limit);
}
