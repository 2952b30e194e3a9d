// copyprivate (single.hpp): the single's member hands its data to the team.
#include "worksharing/single.hpp"

#include "sync/barrier.hpp"

namespace loom::omp {

void copyprivate_broadcast(implicit_task* it, void* data, void (*copy)(void*, void*), bool didit) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return;
    if (didit) t->copyprivate_data = data;
    team_barrier(it);
    if (!didit) copy(data, t->copyprivate_data);
    team_barrier(it);
}

void* copyprivate_pointer(implicit_task* it, void* data) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return data;
    if (data) t->copyprivate_data = data;
    team_barrier(it);
    return t->copyprivate_data;
}

}  // namespace loom::omp
