#include "gpu/minhash_batch.h"

#include <gtest/gtest.h>

#include <string>

namespace winnow::gpu {
namespace {

TEST(MinHashBatch, LaysOutTextsAndHostHashes) {
  MinHashBatch batch(4);
  ASSERT_TRUE(batch.add_text("abcdefg"));  // 4 windows
  const std::vector<uint32_t> hashes = {7, 8, 9};
  ASSERT_TRUE(batch.add_hashes(hashes));
  ASSERT_TRUE(batch.add_text("hijkl"));  // 2 windows
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch.docs()[0].hashes, 4u);
  EXPECT_EQ(batch.docs()[0].text_bytes, 7u);
  EXPECT_EQ(batch.docs()[1].text_bytes, 0u);
  EXPECT_EQ(batch.docs()[1].host_offset, 0u);
  EXPECT_EQ(batch.docs()[1].hashes, 3u);
  EXPECT_EQ(batch.docs()[2].text_offset, 7u);
  EXPECT_EQ(batch.docs()[2].hashes, 2u);
  EXPECT_EQ(std::string(batch.text().begin(), batch.text().end()), "abcdefghijkl");
  batch.clear();
  EXPECT_EQ(batch.size(), 0u);
  EXPECT_TRUE(batch.text().empty());
}

// add_text's precondition is checked, not assumed: a text shorter than the window has no
// window (its count would wrap to ~2^64 and the device would read past the text), and a
// document without hashes has no minimum. Neither is added.
TEST(MinHashBatch, RefusesTextsShorterThanTheWindowAndEmptyHashes) {
  MinHashBatch batch(5);
  EXPECT_FALSE(batch.add_text(""));
  EXPECT_FALSE(batch.add_text("abcd"));
  EXPECT_FALSE(batch.add_hashes({}));
  EXPECT_EQ(batch.size(), 0u);
  EXPECT_TRUE(batch.text().empty());
  ASSERT_TRUE(batch.add_text("abcde"));  // exactly one window
  EXPECT_EQ(batch.docs()[0].hashes, 1u);
  EXPECT_FALSE(MinHashBatch(0).add_text("abc"));
}

// Counts are 64-bit: offsets and sizes past 4 GiB are kept exactly (the 32-bit fields this
// replaced wrapped them). Checked on the layout's types, without allocating 4 GiB.
TEST(MinHashBatch, CountsAreSixtyFourBit) {
  MinHashDoc doc;
  doc.text_bytes = (uint64_t{1} << 32) + 7;
  doc.hashes = (uint64_t{1} << 32) + 3;
  EXPECT_EQ(doc.text_bytes, 4294967303u);
  EXPECT_EQ(doc.hashes, 4294967299u);
}

// Chunks cover every document once, in order, each within the hash budget unless a single
// document is larger; their text and host-hash ranges are what their documents use.
TEST(MinHashBatch, ChunksCoverTheBatchWithinTheBudget) {
  MinHashBatch batch(3);
  std::string text;
  std::vector<uint32_t> hashes;
  for (int i = 0; i < 37; ++i) {
    if (i % 3 == 0) {
      hashes.assign(static_cast<size_t>(i % 7 + 1), 5u);
      ASSERT_TRUE(batch.add_hashes(hashes));
    } else {
      text.assign(static_cast<size_t>(3 + (i * 13) % 41), 'x');
      ASSERT_TRUE(batch.add_text(text));
    }
  }
  for (uint64_t budget : {1u, 10u, 40u, 100u, 1000000u}) {
    auto chunks = batch.chunks(budget);
    ASSERT_FALSE(chunks.empty());
    size_t next = 0;
    for (const MinHashChunk& c : chunks) {
      EXPECT_EQ(c.begin, next);
      ASSERT_GT(c.end, c.begin);
      uint64_t sum = 0;
      for (size_t d = c.begin; d < c.end; ++d) {
        const MinHashDoc& doc = batch.docs()[d];
        sum += doc.hashes;
        EXPECT_GE(doc.text_offset, c.text_begin);
        EXPECT_LE(doc.text_offset + doc.text_bytes, c.text_end);
        if (doc.text_bytes == 0) {
          EXPECT_GE(doc.host_offset, c.host_begin);
          EXPECT_LE(doc.host_offset + doc.hashes, c.host_end);
        }
      }
      EXPECT_EQ(sum, c.hashes);
      if (c.end - c.begin > 1) {
        EXPECT_LE(c.hashes, budget);
      }
      next = c.end;
    }
    EXPECT_EQ(next, batch.size());
    EXPECT_EQ(chunks.back().text_end, batch.text().size());
    EXPECT_EQ(chunks.back().host_end, batch.host_hashes().size());
  }
  EXPECT_TRUE(MinHashBatch(3).chunks(10).empty());
}

}  // namespace
}  // namespace winnow::gpu
