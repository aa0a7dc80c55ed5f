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
//
// Across ranks (ClustererOptions::comm with several): each rank adds its own documents; at
// compute_links() the records are shuffled so that each bucket meets on the rank that owns it
// (dedup/bucket_shuffle.h), each rank links its buckets, and the links are gathered on every
// rank; finish() gathers the linked documents' ids and metrics the same way. Every rank then
// builds the same table, identical to the one a single process builds from the same documents.
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "dedup/doc_info_log.h"
#include "dedup/duplicates_table.h"
#include "dedup/partitioned_spill.h"
#include "dist/comm.h"

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

// How the members of one bucket are linked. kChain (NeMo's default) links consecutive members;
// kAnchors links every member to the bucket's first two members, so that when links are
// verified (exact Jaccard) one false candidate cannot cut a bucket of true duplicates apart.
// kAllPairs links every pair of a bucket's members, for a verified method whose relation is
// not transitive within a bucket (perceptual hashes under a Hamming threshold: members that
// share a band may each be near a different one); quadratic in the bucket's size, so meant
// for buckets made small by wide bands.
enum class LinkShape { kChain, kAnchors, kAllPairs };

struct ClustererOptions {
  std::string spill_dir;
  size_t memory_bytes = size_t{1} << 30;
  int threads = 1;
  size_t partitions = 64;
  SurvivorRule survivor = SurvivorRule::kSmallestKey;
  LinkShape links = LinkShape::kChain;
  dist::Comm* comm =
      nullptr;  // null: one process; else compute_links() and finish() are collective
};

struct ClusterStats {
  uint64_t documents = 0;  // documents that gave records
  SpillStats spill;
  uint64_t doc_info_spilled_bytes = 0;
  uint64_t shared_buckets = 0;  // buckets with two or more documents
  uint64_t links = 0;           // distinct links between bucket members
  uint64_t links_rejected = 0;  // links a LinkFilter refused
  // Across ranks: the bucket records each rank sent to the others (bytes, by rank), and the
  // rounds of exchange. Empty in one process.
  std::vector<uint64_t> shuffle_bytes_by_rank;
  uint64_t shuffle_rounds = 0;
};

class DuplicateClusterer {
 public:
  explicit DuplicateClusterer(ClustererOptions options);

  // Thread-safe. `doc_infos`: DocInfoLog::serialize'd entries for the same documents.
  Status add(const BucketRecord* records, size_t n, std::string_view doc_infos, uint64_t documents);
  // Keeps a candidate link (doc a, doc b) or refuses it (verification).
  using LinkFilter = std::function<bool(uint64_t a, uint64_t b)>;

  // After the last add(): the candidate links, and the documents they touch (sorted). The same
  // on every rank.
  Status compute_links();
  const std::vector<uint64_t>& linked_documents() const { return members_; }
  // The components over the links `filter` keeps (all without one), and their survivors.
  // Calls compute_links() first when it has not been.
  Result<DuplicatesTable> finish(const LinkFilter& filter = nullptr);

  const ClusterStats& stats() const { return stats_; }
  // Spill files written so far (tests corrupt them).
  std::vector<std::string> spill_files() const { return spill_.files(); }
  Status flush_for_test() { return spill_.flush(); }

 private:
  dist::Comm& comm() const { return options_.comm ? *options_.comm : dist::local_comm(); }
  // Links of the buckets in `spill` (this rank's), in parallel; adds its shared buckets.
  Status link_buckets(PartitionedSpill<BucketRecord>& spill,
                      std::vector<std::pair<uint64_t, uint64_t>>& links, uint64_t& shared_buckets);

  ClustererOptions options_;
  PartitionedSpill<BucketRecord> spill_;
  DocInfoLog infos_;
  std::atomic<uint64_t> documents_{0};
  bool links_ready_ = false;
  std::vector<std::pair<uint64_t, uint64_t>> links_;
  std::vector<uint64_t> members_;
  ClusterStats stats_;
};

}  // namespace winnow
