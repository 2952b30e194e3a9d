// LOOM_TRACE spans of MPI requests (ext::trace_async_begin on the "MPI" track): named
// after the nonblocking call that started the request, with the peer rank and tag for
// point-to-point calls. The calls are recognised by address (a function's address is
// the same in every object of the process).
#include <dlfcn.h>
#include <mpi.h>

#include <array>
#include <cstring>

#include "loom/ext/trace.hpp"
#include "loom/mpi.hpp"

namespace loom::mpi::detail {

namespace {

struct known_call {
    const void* address;
    const char* name;
    bool point_to_point;  // (buf, count, type, peer, tag, comm, request)
};

#define LOOM_MPI_CALL(f, p2p) known_call{reinterpret_cast<const void*>(&f), #f, p2p}

const known_call* find_call(const void* call) noexcept {
    static const std::array calls{
        LOOM_MPI_CALL(MPI_Isend, true),      LOOM_MPI_CALL(MPI_Issend, true),
        LOOM_MPI_CALL(MPI_Irsend, true),     LOOM_MPI_CALL(MPI_Ibsend, true),
        LOOM_MPI_CALL(MPI_Irecv, true),      LOOM_MPI_CALL(MPI_Ibarrier, false),
        LOOM_MPI_CALL(MPI_Ibcast, false),    LOOM_MPI_CALL(MPI_Ireduce, false),
        LOOM_MPI_CALL(MPI_Iallreduce, false), LOOM_MPI_CALL(MPI_Igather, false),
        LOOM_MPI_CALL(MPI_Iscatter, false),  LOOM_MPI_CALL(MPI_Iallgather, false),
        LOOM_MPI_CALL(MPI_Ialltoall, false), LOOM_MPI_CALL(MPI_Iscan, false),
        LOOM_MPI_CALL(MPI_Iexscan, false),   LOOM_MPI_CALL(MPI_Ireduce_scatter_block, false),
    };
    for (const known_call& c : calls) {
        if (c.address == call) return &c;
    }
    return nullptr;
}

#undef LOOM_MPI_CALL

}  // namespace

std::uint64_t trace_request(const void* call, int peer, int tag) noexcept {
    if (!ext::tracing()) return 0;
    const known_call* known = call ? find_call(call) : nullptr;
    const char* name = known ? known->name : "MPI request";
    if (!known && call) {
        // Another call: the dynamic symbol's name when there is one ("PMPI_Ineighbor_...").
        Dl_info info{};
        if (dladdr(call, &info) != 0 && info.dli_sname && std::strncmp(info.dli_sname, "MPI", 3) == 0) {
            name = info.dli_sname;  // lives as long as the MPI library, which stays loaded
        } else if (dladdr(call, &info) != 0 && info.dli_sname && std::strncmp(info.dli_sname, "PMPI", 4) == 0) {
            name = info.dli_sname + 1;
        }
    }
    if (known && known->point_to_point && peer >= 0) {
        const ext::trace_arg args[] = {{"peer", peer}, {"tag", tag}};
        return ext::trace_async_begin("MPI", name, args, 2);
    }
    return ext::trace_async_begin("MPI", name, nullptr, 0);
}

void trace_request_end(std::uint64_t span, int code) noexcept {
    if (span == 0) return;
    if (code == MPI_SUCCESS) {
        ext::trace_async_end(span);
        return;
    }
    const ext::trace_arg args[] = {{"error", code}};
    ext::trace_async_end(span, args, 1);
}

}  // namespace loom::mpi::detail
