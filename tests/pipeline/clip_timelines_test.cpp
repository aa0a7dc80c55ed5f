#include "pipeline/clip_timelines.h"

#include <gtest/gtest.h>

#include <set>

#include "core/row_builder.h"

namespace winnow {
namespace {

struct Videos {
  ReasonTable reasons;
  ReasonId split = reasons.add("split_video", 0, "split", RowOutcome::kFannedOut);
  ReasonId low_motion = reasons.add("motion_filter", 1, "low_motion");
};

// Videos v<first>..v<first + count - 1>, each split into 3 clips of 2 s (in reverse order of
// time, so the timeline must sort them); the middle clip of every even video dropped.
DocBatch videos(Videos& v, uint64_t first, uint64_t count) {
  DocBatch batch;
  for (uint64_t k = first; k < first + count; ++k) {
    batch.add_item(DocKey(1000 + k), ItemKind::kVideo, "v" + std::to_string(k),
                   Payload::of_file("/videos/v" + std::to_string(k) + ".mp4", "video/mp4"), k);
  }
  RowBuilder builder(batch);
  for (size_t row = 0; row < count; ++row) {
    builder.carry_as(row, v.split);
    for (uint32_t c = 0; c < 3; ++c) {
      size_t child = builder.add_child(row, c, v.split, "");
      builder.set_kind(child, ItemKind::kClip);
      Payload clip =
          Payload::of_file("/videos/v" + std::to_string(first + row) + ".mp4", "video/mp4");
      clip.time_begin = 2.0 * (2 - c);
      clip.time_end = clip.time_begin + 2;
      builder.set_payload(child, clip);
    }
  }
  builder.finish();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kind(i) != ItemKind::kClip || batch.lineage(i).index != 1) continue;
    const std::string id(batch.id(i));
    const uint64_t video = std::stoull(id.substr(1, id.find('-') - 1));
    if (video % 2 == 0) batch.drop(i, v.low_motion);
  }
  return batch;
}

TEST(ClipTimelines, TheSameSourcesAndClipsWhateverTheBatchesAndTheirOrder) {
  Videos v;
  ClipTimelines whole(4, 42), pieces(4, 42);
  whole.offer(videos(v, 0, 30), v.reasons);
  for (uint64_t first : {24, 12, 0, 18, 6}) pieces.offer(videos(v, first, 6), v.reasons);
  const std::vector<SourceTimeline> a = whole.timelines(), b = pieces.timelines();
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (size_t s = 0; s < a.size(); ++s) {
    EXPECT_EQ(a[s].source, b[s].source);
    EXPECT_EQ(a[s].key, b[s].key);
    ASSERT_EQ(a[s].clips.size(), 3u) << a[s].source;
    ASSERT_EQ(b[s].clips.size(), 3u);
    const uint64_t video = a[s].key - 1000;
    EXPECT_EQ(a[s].source, "/videos/v" + std::to_string(video) + ".mp4");
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_EQ(a[s].clips[c].begin_s, 2.0 * c);  // sorted by time
      EXPECT_EQ(a[s].clips[c].id, b[s].clips[c].id);
      // The middle clip in time is child 1, dropped in even videos.
      const bool dropped = c == 1 && video % 2 == 0;
      EXPECT_EQ(a[s].clips[c].state, dropped ? "motion_filter/low_motion" : "kept");
    }
  }
  // Another seed, another sample (of 30 sources, 4 drawn twice alike is unlikely).
  ClipTimelines other(4, 7);
  other.offer(videos(v, 0, 30), v.reasons);
  std::set<uint64_t> first, second;
  for (const auto& t : a) first.insert(t.key);
  for (const auto& t : other.timelines()) second.insert(t.key);
  EXPECT_NE(first, second);
}

TEST(ClipTimelines, NoneWhenNoSourcesAreAsked) {
  Videos v;
  ClipTimelines none(0, 42);
  none.offer(videos(v, 0, 3), v.reasons);
  EXPECT_TRUE(none.timelines().empty());
}

}  // namespace
}  // namespace winnow
