#include "cli/job_ranks.h"

#include <cstdlib>
#include <string>

#include "core/number_text.h"
#include "core/rank_devices.h"
#include "core/visible_devices.h"
#include "pipeline/resources.h"

#ifdef WINNOW_HAVE_MPI
#include "dist/mpi_comm.h"
#endif

namespace winnow {

namespace {

int env_int(const char* name) {
  const char* value = std::getenv(name);
  return value ? parse_number<int>(value).value_or(0) : 0;
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

void take_rank_devices() {
  const char* opt_out = std::getenv("WINNOW_DEVICE_PER_RANK");
  if (opt_out && std::string(opt_out) == "0") return;
  std::optional<LocalRank> local = local_rank_from([](const char* name) { return std::getenv(name); });
  if (!local || local->size < 2) return;
  std::vector<std::string> visible;
  if (auto listed = visible_devices_from_environment()) {
    if (listed->size() == 1) return;  // one device per rank already
    visible = *listed;
  }
  const int detected = detect_gpus();
  if (visible.empty()) {
    for (int d = 0; d < detected; ++d) visible.push_back(std::to_string(d));
  } else if (static_cast<int>(visible.size()) > detected) {
    visible.resize(static_cast<size_t>(detected));
  }
  std::vector<std::string> mine = devices_of_rank(visible, *local);
  if (mine.empty()) return;
  std::string list;
  for (const std::string& d : mine) list += (list.empty() ? "" : ",") + d;
  setenv("CUDA_VISIBLE_DEVICES", list.c_str(), 1);
  // The count a test or container forced follows the share.
  if (std::getenv("WINNOW_GPU_COUNT")) {
    setenv("WINNOW_GPU_COUNT", std::to_string(mine.size()).c_str(), 1);
  }
}

}  // namespace winnow
