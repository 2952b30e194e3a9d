#include <mpi.h>

#include "loom/mpi.hpp"

namespace loom::mpi {

namespace {

// MPI_Error_string and MPI_Error_class may be called before MPI_Init and after
// MPI_Finalize; a code MPI does not know still gives a readable message.
std::string describe(int code, const std::string& where) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    std::string msg = "loom::mpi: " + where + ": ";
    if (MPI_Error_string(code, text, &length) == MPI_SUCCESS && length > 0) {
        msg.append(text, static_cast<std::size_t>(length));
    } else {
        msg += "MPI error code " + std::to_string(code);
    }
    return msg;
}

int class_of(int code) {
    int cls = code;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS) cls = code;
    return cls;
}

}  // namespace

error::error(int code, const std::string& where)
    : std::runtime_error(describe(code, where)), code_(code), class_(class_of(code)) {}

}  // namespace loom::mpi
