#pragma once
// The ranks a `winnow run` takes part in. Started by mpirun, mpiexec or srun (with a PMI
// plugin) and built with MPI: one rank of an MPI job (dist/mpi_comm.h). Started any other way:
// a job of one (null). A launcher that starts several tasks which cannot join one MPI job
// (winnow built without MPI, srun without --mpi) is refused: each task would curate the whole
// input into the same folder.
#include <memory>

#include "core/status.h"
#include "dist/comm.h"

namespace winnow {

Result<std::unique_ptr<dist::Comm>> join_job_ranks(int* argc, char*** argv);

}  // namespace winnow
