// Detection of an MPI launcher from the environment variables it sets for each rank:
// Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), MPICH/Hydra and Slurm's PMI (PMI_SIZE), PMIx
// launchers such as srun --mpi=pmix (PMIX_SIZE, else PMIX_RANK with the size unknown).
#include <cstdlib>
#include <string>

#include "mpi_session.hpp"

namespace skipstone {

int launcher_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* v = std::getenv(name);
    if (v && *v) {
      const int n = std::atoi(v);
      return n > 0 ? n : 1;
    }
  }
  return std::getenv("PMIX_RANK") ? 2 : 1;  // a PMIx rank: treat as part of a job
}

}  // namespace skipstone
