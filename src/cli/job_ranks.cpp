#include "cli/job_ranks.h"

#include <cstdlib>
#include <string>

#ifdef WINNOW_HAVE_MPI
#include "dist/mpi_comm.h"
#endif

namespace winnow {

namespace {

int env_int(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : 0;
}

// Tasks the launcher says it started, whatever MPI makes of them.
int launched_tasks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    if (int tasks = env_int(name); tasks > 0) return tasks;
  }
  return 0;
}

}  // namespace

Result<std::unique_ptr<dist::Comm>> join_job_ranks(int* argc, char*** argv) {
  const int tasks = launched_tasks();
#ifdef WINNOW_HAVE_MPI
  if (dist::started_by_mpi_launcher()) {
    std::unique_ptr<dist::Comm> comm = dist::make_mpi_comm(argc, argv);
    if (tasks > 1 && comm->size() == 1) {
      return Status::errorf(
          "the launcher started {} tasks, but MPI sees this one alone: with srun, pass "
          "--mpi=pmix (or --mpi=pmi2)",
          tasks);
    }
    return comm;
  }
  if (tasks > 1) {
    return Status::errorf(
        "{} tasks were started, but not as one MPI job: with srun, pass --mpi=pmix (or "
        "--mpi=pmi2)",
        tasks);
  }
#else
  (void)argc;
  (void)argv;
  if (tasks > 1) {
    return Status::errorf(
        "{} tasks were started, but this winnow was built without MPI (install libopenmpi-dev "
        "and rebuild), so they cannot share the work",
        tasks);
  }
#endif
  return std::unique_ptr<dist::Comm>();
}

}  // namespace winnow
