#pragma once
// IdentifyCheckpoint: what the read pass of an exact, fuzzy or image dedup step produced (every
// bucket record and document entry), kept on disk so that a job killed after it, during the
// shuffle, the linking, the connected components or the table, resumes on any rank count
// without reading or hashing the input again (issue #32 item 5). The read pass is most of an
// identify's cost (parsing, shingling, MinHash); what comes after is rebuilt from the records.
//
// Two phases, each kept under the step's checkpoint folder (global/_checkpoints/<stage>):
//   records: rank-<r>-<p>.records, kParts per rank of the job that wrote it: spill blocks
//            (dedup/spill_file.h, each XXH3-checked), one per observed batch (its bucket
//            records and document entries), dealt to the parts in turn;
//   links:   rank-<r>-<p>.links, the links each rank held after the shuffle and the linking
//            (an equal slice per part), then the document entries it held (blocks dealt in
//            turn, after a block of 16 zero bytes).
// Parts, not one file per rank, so that a resume on another rank count gets an even share: a
// job of 4 ranks resumed on 3 deals 32 files (11, 11, 10), not 4 (2, 1, 1).
// and each completed by `<phase>.complete`, written by rank 0 last, atomically, once every
// rank's file is whole and synced: the step's fingerprint, then each file's name and size.
// A rerun of the same step (same fingerprint: stages, parameters, seed, inputs) on N ranks
// resumes from the later complete phase, file f read by rank f mod N: with the links, it takes
// the document entries of the records files and the links, and starts at the connected
// components; with the records only, it replays them into the clusterer as the read pass
// would have added them. The result does not depend on which rank holds which record or link
// (the groups, survivors and table are functions of them alone), so it is the bytes a whole
// run gives. A missing or damaged file is an error naming it; a checkpoint of another
// fingerprint is ignored and replaced.
//
// Only for steps without a verification pass (jaccard_threshold, the image check): those read
// the candidates' texts again after linking, which a checkpoint of the records cannot skip.
// Semantic dedup (dedup/semantic_step.h) keeps the records phase alone, its blocks holding no
// bucket records and its embedding log's entries in place of document entries.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
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
  static constexpr size_t kParts = 8;  // files per writing rank and phase

  IdentifyCheckpoint(std::string dir, std::string fingerprint, dist::Comm& comm);

  // Collective: whether `phase` ("records", "links") is complete for this fingerprint (rank 0
  // looks).
  bool complete(const std::string& phase);

  // Collective: a fresh checkpoint (rank 0 empties the folder first).
  Status begin_writing();
  // Thread-safe: one observed batch's records and document entries (DocInfoLog::serialize'd;
  // semantic dedup: none and EmbeddingLog::serialize'd entries).
  Status add(const BucketRecord* records, size_t n, std::string_view infos, uint64_t documents);
  // Collective: every rank's file closed and synced, then rank 0 writes `records.complete`.
  Status finish_writing();
  // Collective: this rank's links and document entries (`documents`: visits their blocks)
  // kept, then `links.complete` written.
  Status save_links(const std::vector<std::pair<uint64_t, uint64_t>>& links,
                    const std::function<Status(const std::function<Status(std::string_view)>&)>&
                        documents);

  // Replays this rank's share of a complete checkpoint's files, block by block.
  using Visit = std::function<Status(const BucketRecord* records, size_t n,
                                     std::string_view infos, uint64_t documents)>;
  Status replay(const Visit& visit);
  // This rank's share of the links and document entries (after complete("links")): the links
  // appended to `links`, each block of entries to `documents`.
  Status load_links(std::vector<std::pair<uint64_t, uint64_t>>& links,
                    const std::function<Status(std::string_view block)>& documents);

  uint64_t bytes() const { return bytes_; }  // this rank's, written or replayed

 private:
  std::string dir_;
  std::string fingerprint_;
  dist::Comm& comm_;
  std::mutex mutex_;
  std::array<SpillWriter, kParts> writers_;
  uint64_t blocks_ = 0;  // added so far (the next block's part: blocks_ mod kParts)
  std::string block_;
  uint64_t bytes_ = 0;
  // Per complete phase: its files and their sizes.
  std::map<std::string, std::vector<std::pair<std::string, uint64_t>>> files_;

  // Collective: each rank's files (closed) synced, then rank 0 writes `<phase>.complete`
  // naming every rank's, in rank and part order.
  Status mark_complete(const std::string& phase, const std::array<SpillWriter, kParts>& files);
  // Opens this rank's kParts files of `phase`.
  Status open_parts(const std::string& phase, std::array<SpillWriter, kParts>& writers);
  // Every verified block of this rank's share of `phase`'s files.
  Status for_each_block(const std::string& phase,
                        const std::function<Status(std::string_view block,
                                                   const std::string& path)>& visit);
};

}  // namespace winnow
