#pragma once
// IdentifyCheckpoint: what the read pass of an exact, fuzzy or image dedup step produced (every
// bucket record and document entry), kept on disk so that a job killed after it, during the
// shuffle, the linking, the connected components or the table, resumes on any rank count
// without reading or hashing the input again (issue #32 item 5). The read pass is most of an
// identify's cost (parsing, shingling, MinHash); what comes after is rebuilt from the records.
//
// Layout under the step's checkpoint folder (the output's global/_checkpoints/<stage>):
//   rank-<r>.records   one per rank of the job that wrote it: spill blocks (dedup/spill_file.h,
//                      each XXH3-checked), one per observed batch: its records and entries
//   complete           written by rank 0 last, atomically, once every rank's file is whole:
//                      the step's fingerprint, then each file's name and size
// A rerun of the same step (same fingerprint: stages, parameters, seed, inputs) on N ranks
// finds `complete` and gives file f to rank f mod N, which replays its blocks into the
// clusterer as the read pass would have added them. The result does not depend on which rank
// holds which record (the groups, survivors and table are functions of the records alone), so
// it is the bytes a whole run gives. A missing or damaged file is an error naming it; a
// checkpoint of another fingerprint is ignored and replaced.
//
// Only for steps without a verification pass (jaccard_threshold, the image check): those read
// the candidates' texts again after linking, which a checkpoint of the records cannot skip.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "dedup/duplicate_clusterer.h"
#include "dedup/spill_file.h"

namespace winnow {

namespace dist {
class Comm;
}

class IdentifyCheckpoint {
 public:
  IdentifyCheckpoint(std::string dir, std::string fingerprint, dist::Comm& comm);

  // Collective: whether a complete checkpoint of this fingerprint is there (rank 0 looks).
  bool complete();

  // Collective: a fresh checkpoint (rank 0 empties the folder first).
  Status begin_writing();
  // Thread-safe: one observed batch's records and document entries (DocInfoLog::serialize'd).
  Status add(const BucketRecord* records, size_t n, std::string_view infos, uint64_t documents);
  // Collective: every rank's file closed and synced, then rank 0 writes `complete`.
  Status finish_writing();

  // Replays this rank's share of a complete checkpoint's files, block by block.
  using Visit = std::function<Status(const BucketRecord* records, size_t n,
                                     std::string_view infos, uint64_t documents)>;
  Status replay(const Visit& visit);

  // Removes the folder (rank 0; after the step's result is marked whole).
  static void remove(const std::string& dir);

  uint64_t bytes() const { return bytes_; }  // this rank's, written or replayed

 private:
  std::string dir_;
  std::string fingerprint_;
  dist::Comm& comm_;
  std::mutex mutex_;
  SpillWriter writer_;
  std::string block_;
  uint64_t bytes_ = 0;
  std::vector<std::pair<std::string, uint64_t>> files_;  // of the complete checkpoint
};

}  // namespace winnow
