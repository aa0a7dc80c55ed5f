#pragma once
// How the mpi-labelled tests start jobs: Open MPI's mpirun, as root where the test runs as
// root, oversubscribed (more ranks than this machine's cores), with only the shared-memory and
// self transports (no warnings about absent network cards). kMpiAvailable is false when winnow
// was built without MPI; those tests skip.
#include <string>

namespace winnow::testing {

#ifdef WINNOW_MPIEXEC
inline constexpr bool kMpiAvailable = true;
inline std::string mpirun(int ranks) {
  return std::string("env OMPI_MCA_btl=self,vader ") +
         WINNOW_MPIEXEC + " --allow-run-as-root --oversubscribe -np " + std::to_string(ranks);
}
#else
inline constexpr bool kMpiAvailable = false;
inline std::string mpirun(int) { return ""; }
#endif

}  // namespace winnow::testing
