#pragma once
// PhaseCheckpoint: the on-disk record of which phases of a global dedup step have finished, per
// partition (issue #32 item 5, resumable global steps). Partitions are the fixed count of
// ClustererOptions::partitions, independent of the rank count, so a checkpoint written by a
// job on 4 ranks is found by its rerun on 3: whichever rank now owns a partition reads it.
//
// Layout under `dir`:
//   manifest                      the fingerprint (config + inputs) the checkpoints belong to
//   <phase>/part-<p>.ckpt         one spill block (dedup/spill_file.h: XXH3-checked) holding
//                                 fingerprint, phase, partition and the phase's result
// Each file is written to a temporary name and renamed, so a job killed mid-write leaves either
// the old state or the whole new file, never half of one. On open, a manifest naming another
// fingerprint (a changed config or input) removes every checkpoint: nothing is reused from
// another job. A file that fails its checksum, is truncated, or names another phase, partition
// or fingerprint is removed and reported missing: recomputed, never trusted.
//
// Not yet wired into DuplicateClusterer (see src/dedup/README.md): this is the store the
// phases will save into and resume from.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

class PhaseCheckpoint {
 public:
  // Makes `dir` and its manifest; drops every checkpoint of another fingerprint.
  static Result<PhaseCheckpoint> open(const std::string& dir, uint64_t fingerprint);

  // Atomically records `phase` finished for `partition` with its result `payload`.
  Status save(std::string_view phase, uint32_t partition, std::string_view payload) const;
  // The result of a finished phase, or nullopt when it is missing or damaged (then removed).
  std::optional<std::string> load(std::string_view phase, uint32_t partition);
  // The last of `phases` (in order) finished, with every earlier one, for `partition`: the
  // index into `phases`, or -1 when the first is not finished.
  int last_finished(const std::vector<std::string>& phases, uint32_t partition);

  uint64_t fingerprint() const { return fingerprint_; }
  uint64_t damaged() const { return damaged_; }  // files found damaged and removed so far
  std::string path_of(std::string_view phase, uint32_t partition) const;

 private:
  PhaseCheckpoint(std::string dir, uint64_t fingerprint)
      : dir_(std::move(dir)), fingerprint_(fingerprint) {}
  std::string dir_;
  uint64_t fingerprint_;
  uint64_t damaged_ = 0;
};

// A fingerprint of a step's config and inputs: order-sensitive XXH3 over the parts.
uint64_t checkpoint_fingerprint(const std::vector<std::string>& parts);

}  // namespace winnow
