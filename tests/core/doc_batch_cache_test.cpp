// DocBatch's derived-data cache slot: owned by the batch, told when a document's text is
// replaced, replaceable.
#include <gtest/gtest.h>

#include <vector>

#include "core/doc_batch.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

class RecordingCache final : public DocBatchCache {
 public:
  explicit RecordingCache(std::vector<size_t>* changed, bool* destroyed)
      : changed_(changed), destroyed_(destroyed) {}
  ~RecordingCache() override { *destroyed_ = true; }
  void text_changed(size_t row) override { changed_->push_back(row); }

 private:
  std::vector<size_t>* changed_;
  bool* destroyed_;
};

TEST(DocBatchCache, SetTextNotifiesAndTheBatchOwnsTheCache) {
  std::vector<size_t> changed;
  bool destroyed = false;
  {
    auto batch = testing::make_text_batch({"a", "b", "c"});
    EXPECT_EQ(batch->cache(), nullptr);
    batch->set_text(0, "no cache yet");  // nothing to tell
    batch->set_cache(std::make_unique<RecordingCache>(&changed, &destroyed));
    ASSERT_NE(batch->cache(), nullptr);
    batch->set_text(2, "new");
    batch->set_text(1, "newer");
    EXPECT_EQ(changed, (std::vector<size_t>{2, 1}));
    EXPECT_EQ(batch->text(2), "new");
    EXPECT_TRUE(batch->text_changed(2));
    EXPECT_FALSE(destroyed);
  }
  EXPECT_TRUE(destroyed);  // freed with the batch
}

}  // namespace
}  // namespace winnow
