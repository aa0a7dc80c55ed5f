#pragma once
// The MPI Comm (dist/comm.h), built when CMake found MPI (WINNOW_HAVE_MPI); only the winnow
// command links it, so the libraries, their tests and the Python module need no MPI. This
// header names no MPI type: mpi.h stays in dist/mpi/mpi_comm.cpp.
#include <memory>
#include <string>

#include "dist/comm.h"

namespace winnow::dist {

// True when an MPI launcher started this process: mpirun/mpiexec (Open MPI, MPICH, Hydra) or
// Slurm's srun with a PMI plugin. A process started any other way runs alone, without MPI.
bool started_by_mpi_launcher();

// The tasks Slurm says this job step has (SLURM_STEP_NUM_TASKS, else SLURM_NTASKS), 0 when not
// under Slurm: srun without `--mpi=pmix` starts every task as a lone process that MPI cannot
// join, which the winnow command refuses instead of letting each task curate the whole input.
int slurm_tasks();

// Initialises MPI once (MPI_THREAD_FUNNELED: only the main thread calls MPI) and returns the
// world communicator; MPI is finalised when it is destroyed. Large exchanges go in rounds of
// at most `round_bytes` per rank (0: 64 MiB, less with many ranks; tests pass small ones).
std::unique_ptr<Comm> make_mpi_comm(int* argc, char*** argv, size_t round_bytes = 0);

}  // namespace winnow::dist
