// The MPI job this process belongs to, if any. skipstone initialises MPI only when it was
// started by an MPI launcher (mpirun, mpiexec, srun: detected from the environment), so a
// plain `skipstone run` never needs one. Built with MPI (SKIPSTONE_MPI) by mpi_session.cpp,
// else by mpi_session_absent.cpp, which refuses to run as one of several ranks (each would
// run the whole scan and they would overwrite each other's outputs).
#pragma once
#include <stdexcept>
#include <string>

namespace skipstone {

struct MpiJob {
  int rank = 0, size = 1;              // in MPI_COMM_WORLD
  int local_rank = 0, local_size = 1;  // among the ranks on this node
  bool distributed() const { return size > 1; }
};

// Thrown when set-up failed on some rank, on every rank but the lowest failing one, which
// reports its error: these stop quietly with exit status 1.
struct PeerRankFailed : std::runtime_error {
  PeerRankFailed() : std::runtime_error("another MPI rank failed during set-up") {}
};

class MpiSession {
 public:
  // Initialises MPI when launched as a rank of an MPI job; throws std::runtime_error when the
  // launcher started several ranks but this binary was built without MPI.
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // The job of this process (size 1 when not launched by MPI); valid while a session lives.
  static const MpiJob& job();

  // Collective over all ranks: the lowest rank that passes ok = false, -1 when none does.
  static int first_failed_rank(bool ok);

  // Ends every rank of the job with `code` after a failure during the run.
  [[noreturn]] static void abort(int code);
};

// The number of ranks an MPI launcher started, read from its environment (1 when none).
int launcher_world_size();

}  // namespace skipstone
