// DocBatch's derived-data caches: one of each kind, owned by the batch, each told when a
// document's text is replaced, dropped when the rows are rebuilt.
#include <gtest/gtest.h>

#include <vector>

#include "core/doc_batch.h"
#include "core/row_builder.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

int live_caches = 0;

class RecordingCache : public DocBatchCache {
 public:
  RecordingCache() { ++live_caches; }
  ~RecordingCache() override { --live_caches; }
  void text_changed(size_t row) override { changed.push_back(row); }
  std::vector<size_t> changed;
};
class OtherKindOfCache final : public RecordingCache {};

TEST(DocBatchCache, EachKindIsMadeOnceToldOfTextChangesAndOwnedByTheBatch) {
  {
    auto batch = testing::make_text_batch({"a", "b", "c"});
    EXPECT_EQ(batch->find_cache<RecordingCache>(), nullptr);
    batch->set_text(0, "no cache yet");  // nothing to tell
    RecordingCache& first = batch->cache<RecordingCache>();
    EXPECT_EQ(&batch->cache<RecordingCache>(), &first);  // made once
    EXPECT_EQ(batch->find_cache<OtherKindOfCache>(), nullptr);
    OtherKindOfCache& second = batch->cache<OtherKindOfCache>();
    EXPECT_EQ(batch->find_cache<OtherKindOfCache>(), &second);
    EXPECT_EQ(live_caches, 2);
    batch->set_text(2, "new");
    batch->set_text(1, "newer");
    EXPECT_EQ(first.changed, (std::vector<size_t>{2, 1}));
    EXPECT_EQ(second.changed, (std::vector<size_t>{2, 1}));
    EXPECT_EQ(batch->text(2), "new");
    EXPECT_TRUE(batch->text_changed(2));
  }
  EXPECT_EQ(live_caches, 0);  // freed with the batch
}

TEST(DocBatchCache, RebuildingTheRowsDropsEveryCache) {
  auto batch = testing::make_text_batch({"a", "b"});
  batch->cache<RecordingCache>();
  batch->cache<OtherKindOfCache>();
  RowBuilder builder(*batch);
  builder.carry(0);
  builder.carry(1);
  builder.finish();
  EXPECT_EQ(batch->find_cache<RecordingCache>(), nullptr);
  EXPECT_EQ(batch->find_cache<OtherKindOfCache>(), nullptr);
  EXPECT_EQ(live_caches, 0);
}

}  // namespace
}  // namespace winnow
