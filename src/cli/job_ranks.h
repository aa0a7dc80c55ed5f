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

// Several ranks on one node: narrows CUDA_VISIBLE_DEVICES to this rank's share of the node's
// devices (core/rank_devices.h), before anything touches CUDA, so each rank's GPU stages and
// MinHash pool use their own devices, not all device 0. Leaves it alone for a rank alone on its
// node, when the launcher says nothing of local ranks, when CUDA_VISIBLE_DEVICES already names
// a single device (set per rank by the launcher), or with WINNOW_DEVICE_PER_RANK=0.
void take_rank_devices();

}  // namespace winnow
