// Built instead of mpi_session.cpp without MPI (SKIPSTONE_MPI=OFF or no MPI found): every
// process is a job of one rank, and being started as one of several ranks is an error.
#include <cstdlib>
#include <string>

#include "mpi_session.hpp"

namespace skipstone {

namespace {
const MpiJob g_job;
}  // namespace

MpiSession::MpiSession(int*, char***) {
  const int n = launcher_world_size();
  if (n > 1)
    throw std::runtime_error("started as one of " + std::to_string(n) +
                             " MPI ranks, but this skipstone was built without MPI (SKIPSTONE_MPI=OFF or no MPI "
                             "library found): each rank would run the whole scan. Install libopenmpi-dev and rebuild, "
                             "or use --shard I/N with skipstone merge");
}

MpiSession::~MpiSession() = default;

const MpiJob& MpiSession::job() { return g_job; }

int MpiSession::first_failed_rank(bool ok) { return ok ? -1 : 0; }

void MpiSession::abort(int code) { std::exit(code); }

}  // namespace skipstone
