#pragma once
// The MPI Comm (dist/comm.h), built when CMake found MPI (WINNOW_HAVE_MPI); only the winnow
// command links it, so the libraries, their tests and the Python module need no MPI. This
// header names no MPI type: mpi.h stays in dist/mpi/mpi_comm.cpp.
#include <cstdint>
#include <memory>
#include <string>

#include "dist/comm.h"

namespace winnow::dist {

// True when an MPI launcher started this process: mpirun/mpiexec (Open MPI, MPICH, Hydra) or
// Slurm's srun with a PMI plugin. A process started any other way runs alone, without MPI.
bool started_by_mpi_launcher();

// Initialises MPI once (MPI_THREAD_SERIALIZED: the main thread's collectives and the workers'
// shared-counter calls take turns) and returns the world communicator; MPI is finalised when
// it is destroyed. Large exchanges go in rounds of at most `round_bytes` per rank (0: 64 MiB,
// less with many ranks; tests pass small ones).
//
// A rank waiting for the others in a collective sleeps between tests of the pending request
// (dist/poll_backoff.h; `barrier()` by PollBackoff's default schedule) instead of spinning as
// MPI's blocking collectives do; the results are the same bytes.
std::unique_ptr<Comm> make_mpi_comm(int* argc, char*** argv, size_t round_bytes = 0);

// How many times this process has tested a pending collective while waiting for the other
// ranks: what shows that a waiting rank sleeps (tests/dist/mpi_comm_check.cpp bounds it by
// PollBackoff::most_tests_within).
uint64_t mpi_wait_tests();

}  // namespace winnow::dist
