#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stages/filter_test_support.h"
#include "stages/builtin_stages.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

TEST(UnicodeFix, RepairsTextAndNeverDrops) {
  auto batch = make_text_batch(
      {"CafÃ© and donâ€™t", "clean text", "bell\x07 and\r\nCRLF", "Cafe\xCC\x81", "bad \xff byte"});
  ReasonTable reasons;
  StageContext context(reasons, "fix", 0, 42);
  auto stage = build_stage(unicode_fix_spec(), {{"annotate", true}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "Café and don’t");
  EXPECT_EQ(batch->text(1), "clean text");
  EXPECT_FALSE(batch->text_changed(1));
  EXPECT_EQ(batch->text(2), "bell and\nCRLF");
  EXPECT_EQ(batch->text(3), "Café");
  EXPECT_EQ(batch->text(4), "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(batch->kept_count(), 5u);
  const AnnotationColumn* fixes = batch->find_annotation("fix");
  ASSERT_NE(fixes, nullptr);
  EXPECT_EQ(fixes->string_at(0), "mojibake");
  EXPECT_EQ(fixes->string_at(1), "");
  EXPECT_EQ(fixes->string_at(2), "control_chars");
  EXPECT_EQ(fixes->string_at(3), "normalized");
  EXPECT_EQ(fixes->string_at(4), "invalid_utf8");
}

TEST(UnicodeFix, OptionsAndErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "fix", 0, 42);
  auto nfkc =
      build_stage(unicode_fix_spec(),
                  {{"normalization", std::string("nfkc")}, {"fix_mojibake", false}}, context);
  ASSERT_TRUE(nfkc.is_ok());
  auto batch = make_text_batch({"ﬁle CafÃ©"});
  ASSERT_TRUE(nfkc.value()->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "file CafÃ©");

  auto bad = build_stage(unicode_fix_spec(), {{"normalization", std::string("nfd")}}, context);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("normalization"));
  EXPECT_THAT(bad.status().message(), HasSubstr("nfd"));
}

TEST(UnicodeFix, LeavesDroppedDocumentsAlone) {
  ReasonTable reasons;
  StageContext context(reasons, "fix", 0, 42);
  ReasonId earlier = context.declare_reason("earlier");
  auto stage = build_stage(unicode_fix_spec(), {}, context);
  ASSERT_TRUE(stage.is_ok());
  auto batch = make_text_batch({"CafÃ©"});
  batch->drop(0, earlier);
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "CafÃ©");
}

}  // namespace
}  // namespace winnow::testing
