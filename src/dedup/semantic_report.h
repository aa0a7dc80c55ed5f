#pragma once
// SemanticSummary: what a semantic dedup result says, written three ways: summary.json (and so
// stats.json), the terminal summary, and report.html's section (the eps sweep as a table and a
// chart of the kept fraction, the cluster-size histogram, examples of removed pairs).
#include <cstdint>
#include <string>
#include <vector>

namespace winnow {

struct SemanticOptions;

struct RemovedPairExample {
  std::string id, matched_id;
  float similarity = 0;
  uint32_t cluster = 0;
  std::string excerpt, matched_excerpt;
};

struct SemanticSummary {
  const SemanticOptions* options = nullptr;
  uint64_t items = 0;  // with a usable embedding
  uint64_t bad = 0;
  std::vector<std::string> bad_examples;
  size_t dimension = 0;
  size_t clusters = 0;
  int iterations = 0;
  size_t trained_on = 0;
  size_t sampled = 0;
  double objective = 0;
  double inertia = 0;
  std::vector<uint64_t> cluster_sizes;  // by cluster id
  std::vector<double> thresholds;       // [0]: eps's, then the sweep's
  std::vector<uint64_t> removed_at;     // per threshold
  std::vector<RemovedPairExample> examples;

  void write(std::string& json, std::string& text, std::string& html) const;
};

}  // namespace winnow
