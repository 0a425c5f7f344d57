// MPI start-up and shut-down for builds with MPI (SKIPSTONE_MPI): MPI_THREAD_FUNNELED, since
// only the main thread of a rank calls MPI (mpi_scan.cpp); node-local ranks from a shared-memory
// split of MPI_COMM_WORLD.
#include <mpi.h>

#include <cstdlib>

#include "mpi_session.hpp"

namespace skipstone {

namespace {
MpiJob g_job;
bool g_initialised = false;
}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
  if (launcher_world_size() <= 1) return;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  g_initialised = true;
  if (provided < MPI_THREAD_FUNNELED)
    throw std::runtime_error("the MPI library does not support MPI_THREAD_FUNNELED, which skipstone needs");
  MPI_Comm_rank(MPI_COMM_WORLD, &g_job.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_job.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_job.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_job.local_rank);
  MPI_Comm_size(node, &g_job.local_size);
  MPI_Comm_free(&node);
}

MpiSession::~MpiSession() {
  if (g_initialised) MPI_Finalize();
  g_initialised = false;
  g_job = MpiJob{};
}

const MpiJob& MpiSession::job() { return g_job; }

int MpiSession::first_failed_rank(bool ok) {
  if (!g_initialised) return ok ? -1 : 0;
  int mine = ok ? g_job.size : g_job.rank, first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return first == g_job.size ? -1 : first;
}

void MpiSession::abort(int code) {
  if (g_initialised) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace skipstone
