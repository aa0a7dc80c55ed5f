#pragma once
// DuplicateClusterer: the shared back half of exact and fuzzy dedup. Documents arrive as
// bucket records (hi, lo, doc): for fuzzy dedup (band, band key, doc), for exact dedup the
// 128-bit text hash. Records are partitioned by bucket on disk (PartitionedSpill), each
// partition is sorted and cut into buckets, consecutive members of a bucket are linked (a
// chain, as NeMo Curator does: enough for connectivity, linear in bucket size), and the links
// become connected components with a parallel union-find. Each component keeps one survivor.
//
// Everything that decides the result is order-free: component id = smallest DocKey in the
// component; the survivor is the best by the rule, ties going to the smallest DocKey.
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "dedup/doc_info_log.h"
#include "dedup/duplicates_table.h"
#include "dedup/partitioned_spill.h"

namespace winnow {

struct BucketRecord {
  uint64_t hi;
  uint64_t lo;
  uint64_t doc;
};

enum class SurvivorRule {
  kSmallestKey,   // the first document (in input order: shard, row)
  kLongestText,   // metric = text length in bytes
  kHighestField,  // metric = a numeric field; documents without it rank last
};

struct ClustererOptions {
  std::string spill_dir;
  size_t memory_bytes = size_t{1} << 30;
  int threads = 1;
  size_t partitions = 64;
  SurvivorRule survivor = SurvivorRule::kSmallestKey;
};

struct ClusterStats {
  uint64_t documents = 0;  // documents that gave records
  SpillStats spill;
  uint64_t doc_info_spilled_bytes = 0;
  uint64_t shared_buckets = 0;  // buckets with two or more documents
  uint64_t links = 0;           // distinct links between consecutive bucket members
};

class DuplicateClusterer {
 public:
  explicit DuplicateClusterer(ClustererOptions options);

  // Thread-safe. `doc_infos`: DocInfoLog::serialize'd entries for the same documents.
  Status add(const BucketRecord* records, size_t n, std::string_view doc_infos,
             uint64_t documents);
  // After the last add(): the components and their survivors.
  Result<DuplicatesTable> finish();

  const ClusterStats& stats() const { return stats_; }
  // Spill files written so far (tests corrupt them).
  std::vector<std::string> spill_files() const { return spill_.files(); }
  Status flush_for_test() { return spill_.flush(); }

 private:
  ClustererOptions options_;
  PartitionedSpill<BucketRecord> spill_;
  DocInfoLog infos_;
  std::atomic<uint64_t> documents_{0};
  ClusterStats stats_;
};

}  // namespace winnow
