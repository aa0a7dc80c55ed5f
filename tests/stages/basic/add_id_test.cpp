#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::HasSubstr;
using testing::make_batch;
using testing::TestDoc;

using Values = std::map<std::string, StageParams::Value>;

std::unique_ptr<DocBatch> docs(size_t n, uint32_t shard, uint64_t first_row) {
  return make_batch(std::vector<TestDoc>(n), shard, first_row);
}

class AddIdTest : public ::testing::Test {
 protected:
  std::unique_ptr<Stage> make(const Values& values) {
    auto stage = build_stage(add_id_spec(), values, context_);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }

  ReasonTable reasons_;
  StageContext context_{reasons_, "ids", 0, 42};
};

TEST_F(AddIdTest, IdsArePrefixShardAndRow) {
  auto stage = make({});
  ASSERT_NE(stage, nullptr);
  auto batch = docs(3, 3, 41);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("id");
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->type(), AnnotationType::kString);
  const char* expected[] = {"doc-00003-0000000041", "doc-00003-0000000042", "doc-00003-0000000043"};
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(column->has(i));
    EXPECT_EQ(column->string_at(i), expected[i]);
    EXPECT_EQ(batch->id(i), expected[i]);  // the document's id is replaced too
  }
  EXPECT_EQ(batch->kept_count(), 3u);  // never drops
  EXPECT_EQ(reasons_.size(), 1u);      // and declares no reason
}

TEST_F(AddIdTest, LargeNumbersAreNotTruncated) {
  auto stage = make({{"prefix", std::string("p")}});
  ASSERT_NE(stage, nullptr);
  auto batch = docs(1, 123456, 9999999999);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->find_annotation("id")->string_at(0), "p-123456-9999999999");
}

TEST_F(AddIdTest, CustomFieldAndPrefix) {
  auto stage = make({{"field", std::string("uid")}, {"prefix", std::string("web")}});
  ASSERT_NE(stage, nullptr);
  auto batch = docs(2, 0, 0);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->find_annotation("id"), nullptr);
  const AnnotationColumn* column = batch->find_annotation("uid");
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->string_at(0), "web-00000-0000000000");
  EXPECT_EQ(column->string_at(1), "web-00000-0000000001");
}

TEST_F(AddIdTest, IdsAreUniqueAcrossShardsAndBatches) {
  auto stage = make({});
  ASSERT_NE(stage, nullptr);
  std::set<std::string> ids;
  size_t total = 0;
  for (uint32_t shard : {0u, 1u, 10u}) {
    for (uint64_t first : {0u, 500u, 1000u}) {
      auto batch = docs(500, shard, first);
      ASSERT_TRUE(stage->process(*batch).is_ok());
      const AnnotationColumn* column = batch->find_annotation("id");
      ASSERT_NE(column, nullptr);
      for (size_t i = 0; i < batch->size(); ++i) {
        ids.insert(column->string_at(i));
        ++total;
      }
    }
  }
  EXPECT_EQ(ids.size(), total);
}

TEST_F(AddIdTest, IdsAreStableAcrossRunsAndBatchSplits) {
  auto first = make({{"prefix", std::string("x")}});
  ASSERT_NE(first, nullptr);
  auto whole = docs(10, 7, 0);
  ASSERT_TRUE(first->process(*whole).is_ok());

  ReasonTable other_reasons;
  StageContext other_context(other_reasons, "other", 3, 99);
  auto second = build_stage(add_id_spec(), {{"prefix", std::string("x")}}, other_context);
  ASSERT_TRUE(second.is_ok());
  for (uint64_t row = 0; row < 10; row += 3) {
    auto part = docs(std::min<uint64_t>(3, 10 - row), 7, row);
    ASSERT_TRUE(second.value()->process(*part).is_ok());
    for (size_t i = 0; i < part->size(); ++i) {
      EXPECT_EQ(part->id(i), whole->id(row + i));
    }
  }
}

TEST_F(AddIdTest, AlreadyDroppedDocumentsAreLeftAlone) {
  auto stage = make({});
  ASSERT_NE(stage, nullptr);
  auto batch = docs(2, 1, 0);
  batch->drop(0, reasons_.add("earlier", 0, "gone"));
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("id");
  ASSERT_NE(column, nullptr);
  EXPECT_FALSE(column->has(0));
  EXPECT_EQ(batch->id(0), "orig-0");
  EXPECT_TRUE(column->has(1));
  EXPECT_EQ(batch->id(1), "doc-00001-0000000001");
}

TEST_F(AddIdTest, EmptyFieldIsRejected) {
  auto stage = build_stage(add_id_spec(), {{"field", std::string()}}, context_);
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), HasSubstr("'field'"));
}

}  // namespace
}  // namespace winnow
