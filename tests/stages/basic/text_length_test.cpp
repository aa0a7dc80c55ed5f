#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::make_text_batch;
using testing::reasons_of;

class TextLengthTest : public ::testing::Test {
 protected:
  std::unique_ptr<Stage> make(const std::map<std::string, StageParams::Value>& values) {
    auto stage = build_stage(text_length_spec(), values, context_);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }
  Status make_error(const std::map<std::string, StageParams::Value>& values) {
    auto stage = build_stage(text_length_spec(), values, context_);
    return stage.is_ok() ? Status::ok() : stage.status();
  }

  ReasonTable reasons_;
  StageContext context_{reasons_, "len", 0, 42};
};

TEST_F(TextLengthTest, BoundsAreInclusive) {
  auto stage = make({{"min_chars", int64_t{3}}, {"max_chars", int64_t{5}}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"", "ab", "abc", "abcd", "abcde", "abcdef"});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("len/too_short", "len/too_short", "kept",
                                                        "kept", "kept", "len/too_long"));
  // The score of a dropped document is its length.
  EXPECT_EQ(batch->drop_score(0), 0.0);
  EXPECT_EQ(batch->drop_score(1), 2.0);
  EXPECT_EQ(batch->drop_score(5), 6.0);
  EXPECT_TRUE(std::isnan(batch->drop_score(2)));
  EXPECT_EQ(batch->kept_count(), 3u);
}

TEST_F(TextLengthTest, MinEqualToMaxKeepsOneLength) {
  auto stage = make({{"min_chars", int64_t{2}}, {"max_chars", int64_t{2}}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"a", "ab", "abc"});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("len/too_short", "kept", "len/too_long"));
}

TEST_F(TextLengthTest, CountsCodePointsNotBytes) {
  auto stage = make({{"min_chars", int64_t{1}}, {"max_chars", int64_t{1}}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({
      "\xC3\xA9",          // é: 2 bytes, 1 code point
      "\xF0\x9F\x98\x80",  // 😀: 4 bytes, 1 code point
      "\xE4\xB8\xAD",      // 中: 3 bytes, 1 code point
      "e\xCC\x81",         // e + combining acute: 2 code points
      "ab",
  });
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_),
              ElementsAre("kept", "kept", "kept", "len/too_long", "len/too_long"));
}

TEST_F(TextLengthTest, AnnotateWritesTheLengthColumn) {
  auto stage = make({{"min_chars", int64_t{2}}, {"max_chars", int64_t{4}}, {"annotate", true}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"a", "h\xC3\xA9llo", "\xF0\x9F\x98\x80\xF0\x9F\x98\x80", "abc"});
  batch->drop(3, reasons_.add("earlier", 0, "gone"));
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("len");  // named after the stage
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->type(), AnnotationType::kInt);
  // Written for documents this stage kept or dropped...
  ASSERT_TRUE(column->has(0));
  EXPECT_EQ(column->int_at(0), 1);
  ASSERT_TRUE(column->has(1));
  EXPECT_EQ(column->int_at(1), 5);
  ASSERT_TRUE(column->has(2));
  EXPECT_EQ(column->int_at(2), 2);
  // ...but not for one an earlier stage dropped.
  EXPECT_FALSE(column->has(3));
  EXPECT_THAT(reasons_of(*batch, reasons_),
              ElementsAre("len/too_short", "len/too_long", "kept", "earlier/gone"));
}

TEST_F(TextLengthTest, NoColumnWithoutAnnotate) {
  auto stage = make({{"min_chars", int64_t{1}}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"abc"});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->find_annotation("len"), nullptr);
  EXPECT_TRUE(batch->annotations().empty());
}

TEST_F(TextLengthTest, AlreadyDroppedDocumentsAreLeftAlone) {
  auto stage = make({{"min_chars", int64_t{10}}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"short", "also short"});
  ReasonId earlier = reasons_.add("earlier", 0, "gone");
  batch->drop(0, earlier, 0.75);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->drop_reason(0), earlier);
  EXPECT_EQ(batch->drop_score(0), 0.75);
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("earlier/gone", "kept"));
}

TEST_F(TextLengthTest, DefaultsKeepEverything) {
  auto stage = make({});
  ASSERT_NE(stage, nullptr);
  auto batch = make_text_batch({"", std::string(100000, 'x')});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->kept_count(), 2u);
}

TEST_F(TextLengthTest, DeclaresItsReasons) {
  ASSERT_NE(make({}), nullptr);
  ASSERT_EQ(reasons_.size(), 3u);  // kept slot + two
  EXPECT_EQ(reasons_.at(1).qualified(), "len/too_short");
  EXPECT_EQ(reasons_.at(2).qualified(), "len/too_long");
}

TEST_F(TextLengthTest, RejectsMaxBelowMin) {
  Status status = make_error({{"min_chars", int64_t{10}}, {"max_chars", int64_t{9}}});
  ASSERT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("'max_chars'"));
  EXPECT_THAT(status.message(), HasSubstr("stage 'len'"));
}

TEST_F(TextLengthTest, RejectsNegativeMin) {
  Status status = make_error({{"min_chars", int64_t{-1}}});
  ASSERT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("'min_chars'"));
}

TEST_F(TextLengthTest, RejectsUnknownParameters) {
  EXPECT_FALSE(make_error({{"min_words", int64_t{1}}}).is_ok());
}

}  // namespace
}  // namespace winnow
