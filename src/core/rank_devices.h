#pragma once
// One GPU per rank: several ranks of one job on one node each take their own devices, from the
// launcher's node-local rank, instead of every rank using device 0. Pure functions, so every
// launcher's variables and every split are unit-tested without a GPU or a launcher; the winnow
// command applies them (cli/job_ranks.h) before anything touches CUDA, by narrowing
// CUDA_VISIBLE_DEVICES to the rank's share.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace winnow {

struct LocalRank {
  int rank = 0;  // among the ranks on this node, from 0
  int size = 1;  // ranks on this node
};

// The node-local rank from the first launcher whose variables are present: Open MPI
// (OMPI_COMM_WORLD_LOCAL_RANK / _LOCAL_SIZE), Slurm (SLURM_LOCALID, with SLURM_TASKS_PER_NODE's
// entry for SLURM_NODEID, e.g. "2(x3),1"), MPICH and Intel MPI (MPI_LOCALRANKID /
// MPI_LOCALNRANKS), PMIx (PMIX_LOCAL_RANK / PMIX_LOCAL_SIZE). nullopt when none says.
std::optional<LocalRank> local_rank_from(const std::function<const char*(const char*)>& env);

// Slurm's per-node task counts, "2(x3),1" → {2, 2, 2, 1}; empty when malformed.
std::vector<int> slurm_tasks_per_node(const std::string& value);

// The devices (CUDA_VISIBLE_DEVICES entries) a rank takes of `visible`, the node's: an equal,
// contiguous share when there are at least as many devices as ranks (the first ranks get one
// more when they do not divide), else device (rank mod devices), shared with other ranks.
// Empty when there is none.
std::vector<std::string> devices_of_rank(const std::vector<std::string>& visible, LocalRank rank);

}  // namespace winnow
