#pragma once
// The shuffle of fuzzy and exact dedup across ranks (dist/comm.h): every bucket record goes to
// the rank that owns its bucket, so that each bucket's members meet on one rank, which links
// them. Owners come from the same hash the partitions use (mixed with another seed, so a
// rank's records still spread over all its partitions).
//
// Bounded memory: records bound elsewhere are first written to one checksummed spill file per
// destination (dist blocks of at most `block_bytes`), then sent in rounds of all-to-all
// exchanges of one block per destination; what arrives goes into `owned`, which spills to
// disk past its own budget. Collective: every rank calls it, and a failure on any rank (a
// damaged spill file, a full disk) fails it on all, named with its rank.
#include <cstdint>
#include <string>
#include <vector>

#include "dedup/duplicate_clusterer.h"
#include "dedup/partitioned_spill.h"
#include "dist/comm.h"

namespace winnow {

struct ShuffleStats {
  uint64_t records_sent = 0;  // to other ranks
  uint64_t bytes_sent = 0;
  uint64_t rounds = 0;
};

// The rank that links the bucket with hash `hash` (PartitionedSpill's HashFn of the record).
int bucket_owner(uint64_t hash, int ranks);

// Moves every record of `local` (emptied) to its owner's `owned`, this rank's own records
// included, sorting `threads` partitions by owner at a time. `scratch_dir`: where the outgoing
// files go (removed afterwards).
Status shuffle_bucket_records(dist::Comm& comm, PartitionedSpill<BucketRecord>& local,
                              PartitionedSpill<BucketRecord>& owned,
                              PartitionedSpill<BucketRecord>::HashFn hash,
                              const std::string& scratch_dir, size_t block_bytes, int threads,
                              ShuffleStats& stats);

}  // namespace winnow
