// Built instead of mpi_scan.cpp without MPI: every job has one rank (mpi_session_absent.cpp).
#include "mpi_scan.hpp"

namespace skipstone {

std::optional<RangeResult> run_scan_range_on_job(const RunConfig& rc, const BackendChoice& backend,
                                                 const ScanOptions& options) {
  return run_scan_range(rc, backend, options);
}

}  // namespace skipstone
