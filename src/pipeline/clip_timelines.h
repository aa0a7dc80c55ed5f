#pragma once
// ClipTimelines: for a seeded sample of source videos, where their shots were cut: every clip of
// the source that reached the writer, with its span and what became of it (kept, or the
// "stage/reason" that dropped it), for report.html's timeline strips. Sources are ranked by a
// seeded hash of their key and the `sources` smallest kept (a bottom-k), so the sample is the
// same for any thread count: a source in the final sample was in it whenever its clips came.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/reason_table.h"

namespace winnow {

struct TimelineClip {
  double begin_s = 0, end_s = 0;
  std::string id;
  std::string state;  // "kept" or "stage/reason"
};

struct SourceTimeline {
  uint64_t rank = 0;
  uint64_t key = 0;                 // the source video's key
  std::string source;               // its file
  std::vector<TimelineClip> clips;  // by start time (after timelines())
};

inline constexpr size_t kMaxTimelineClips = 400;  // per source; the rest are counted only

class ClipTimelines {
 public:
  ClipTimelines(size_t sources, uint64_t seed) : sources_(sources), seed_(seed) {}

  // Thread-safe: the batch's clips (rows of kind clip with a source file).
  void offer(const DocBatch& batch, const ReasonTable& reasons);
  // Smallest rank first, each source's clips by start time.
  std::vector<SourceTimeline> timelines() const;

 private:
  SourceTimeline* source_for(uint64_t key, const std::string& path);  // under the lock
  size_t sources_;
  uint64_t seed_;
  mutable std::mutex mutex_;
  std::map<uint64_t, SourceTimeline> by_rank_;  // rank -> source (ranks tie astronomically rarely)
};

}  // namespace winnow
