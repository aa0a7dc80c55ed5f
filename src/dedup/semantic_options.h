#pragma once
// The parameters of semantic dedup (stages/dedup/semantic_dedup.cpp parses them), shared by
// the identify phases (dedup/semantic_step.h and the files it names).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace winnow {

enum class SemanticRanking { kHard, kEasy, kRandom, kField };

// Where semantic dedup's products run (dedup/semantic_device.h): a CUDA device, or -1 for the
// CPU. The decisions are the same either way; only the time differs.
struct SemanticDevice {
  int device = -1;
  // Rows per product block on the device (the GPU check measured 4,096 near the sgemm peak on
  // an H200, 1,024 at half of it).
  size_t block = 4096;
  // Clusters under this many rows stay on the CPU (a device call's fixed cost dominates).
  size_t min_rows = 4096;
};

struct SemanticOptions {
  std::string stage_label = "semantic_dedup";  // for messages
  size_t n_clusters = 100;
  int max_iter = 300;
  double tol = 1e-4;
  uint64_t seed = 42;
  double sample_fraction = 1.0;
  SemanticRanking ranking = SemanticRanking::kHard;
  std::string ranking_field;  // kField: the highest value is kept first
  double eps = 0.01;
  std::vector<double> eps_sweep;
  std::string embedding_field = "embedding";
  size_t dimension = 0;  // 0: that of the first item (smallest key) with an embedding
  bool normalize = true;
  bool spherical = true;
  bool keep_one_per_group = false;
  size_t max_points_per_centroid = 256;
  size_t memory_bytes = size_t{1} << 30;
  size_t partitions = 64;
  size_t block = 1024;  // rows per product block in the pruning
  SemanticDevice device;
  // Keep the identify pass's items (the embedding log's entries) on disk until the result is
  // whole (dedup/identify_checkpoint.h), so that a job killed in the k-means, the pruning or
  // the tables resumes on any rank count without reading or embedding the input again.
  bool checkpoint = false;
  // Tests: called once the checkpoint is complete ("records"), before the k-means.
  std::function<Status(const std::string& phase)> after_checkpoint;
};

}  // namespace winnow
