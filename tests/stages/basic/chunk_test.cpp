// chunk (fan-out) and join (fan-in), on batches built by hand.
#include <gtest/gtest.h>

#include "core/run_counts.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using testing::make_batch;
using testing::reasons_of;

struct Chain {
  ReasonTable reasons;
  std::vector<std::unique_ptr<Stage>> stages;

  void add(const StageSpec& spec, const std::string& name,
           const std::map<std::string, StageParams::Value>& values) {
    StageContext context(reasons, name, static_cast<int>(stages.size()), 42);
    auto stage = build_stage(spec, values, context);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    stages.push_back(std::move(stage).value());
  }
  void run(DocBatch& batch) {
    for (auto& stage : stages) ASSERT_TRUE(stage->process(batch).is_ok());
  }
};

TEST(Chunk, EachDocumentBecomesItsPiecesWithParentIdAndIndex) {
  Chain chain;
  chain.add(chunk_spec(), "chunk", {{"max_words", int64_t{3}}});
  auto batch = make_batch({{"one two three four five", R"({"id":"a","url":"u1"})"},
                           {"short", R"({"id":"b"})"},
                           {"   ", R"({"id":"c"})"}});
  chain.run(*batch);
  EXPECT_EQ(reasons_of(*batch, chain.reasons),
            (std::vector<std::string>{"chunk/split", "kept", "kept", "chunk/split", "kept",
                                      "chunk/empty"}));
  EXPECT_EQ(batch->text(1), "one two three");
  EXPECT_EQ(batch->text(2), "four five");
  EXPECT_EQ(batch->id(1), "orig-0-0");
  EXPECT_EQ(batch->id(2), "orig-0-1");
  EXPECT_EQ(batch->record(1), R"({"id":"a","url":"u1"})");
  const AnnotationColumn* index = batch->find_annotation("chunk_index");
  const AnnotationColumn* parent = batch->find_annotation("parent_id");
  ASSERT_NE(index, nullptr);
  ASSERT_NE(parent, nullptr);
  EXPECT_EQ(index->int_at(2), 1);
  EXPECT_EQ(parent->string_at(2), "orig-0");
  EXPECT_EQ(index->int_at(4), 0);
  EXPECT_FALSE(index->has(0));  // the parent itself has none
}

TEST(Chunk, NeedsExactlyOneLimit) {
  ReasonTable reasons;
  StageContext context(reasons, "chunk", 0, 1);
  EXPECT_FALSE(build_stage(chunk_spec(), {}, context).is_ok());
  EXPECT_FALSE(build_stage(chunk_spec(), {{"max_chars", int64_t{5}}, {"max_words", int64_t{5}}},
                           context)
                   .is_ok());
  EXPECT_FALSE(build_stage(chunk_spec(), {{"max_chars", int64_t{-1}}}, context).is_ok());
}

TEST(Join, ChunkThenJoinWithoutStrippingGivesBackEachText) {
  const std::string gpl = testing::read_file("/usr/share/common-licenses/GPL-3");
  const std::string apache = testing::read_file("/usr/share/common-licenses/Apache-2.0");
  for (int64_t max_chars : {1, 13, 200, 5000}) {
    Chain chain;
    chain.add(chunk_spec(), "chunk", {{"max_chars", max_chars}, {"strip", false}});
    chain.add(join_spec(), "join", {{"separator", std::string()}});
    auto batch = make_batch({{gpl, R"({"id":"g"})"}, {"x", R"({"id":"x"})"},
                             {apache, R"({"id":"a"})"}});
    chain.run(*batch);
    std::vector<std::string> kept;
    for (size_t i = 0; i < batch->size(); ++i) {
      if (batch->kept(i)) kept.emplace_back(batch->text(i));
    }
    ASSERT_EQ(kept.size(), 3u) << max_chars;
    EXPECT_TRUE(kept[0] == gpl) << max_chars;
    EXPECT_EQ(kept[1], "x");
    EXPECT_TRUE(kept[2] == apache) << max_chars;
  }
}

TEST(Join, DroppedPiecesLeaveTheirDocumentAndEveryRowIsAccounted) {
  Chain chain;
  chain.add(chunk_spec(), "chunk", {{"max_words", int64_t{2}}});
  chain.add(text_length_spec(), "length", {{"min_chars", int64_t{5}}});
  chain.add(join_spec(), "join", {});
  // "ab c" fails the length filter; "zz y", a document of one short piece, loses it.
  auto batch = make_batch({{"hello world ab c tail end", R"({"id":"p","lang":"en"})"},
                           {"zz y", R"({"id":"q"})"}});
  batch->annotation("lang", AnnotationType::kString).set_string(0, "en");
  chain.run(*batch);
  std::vector<size_t> kept;
  for (size_t i = 0; i < batch->size(); ++i) {
    if (batch->kept(i)) kept.push_back(i);
  }
  ASSERT_EQ(kept.size(), 1u);
  size_t r = kept[0];
  EXPECT_EQ(batch->text(r), "hello world\n\ntail end");
  EXPECT_EQ(batch->key(r), DocKey::make(0, 0));
  EXPECT_EQ(batch->id(r), "orig-0");
  EXPECT_EQ(batch->find_annotation("lang")->string_at(r), "en");
  EXPECT_FALSE(batch->find_annotation("chunk_index")->has(r));
  RunCounts counts;
  counts.add_batch(*batch, chain.reasons, ItemKind::kDocument);
  EXPECT_EQ(counts.documents, 2u);
  EXPECT_EQ(counts.kept, 1u);
  EXPECT_EQ(counts.children.at("chunk/split"), 4u);
  EXPECT_EQ(counts.dropped.at("length/too_short"), 2u);
  EXPECT_EQ(counts.merged.at("join/merged"), 2u);
  EXPECT_EQ(counts.merge_results.at("join/merged"), 1u);
  EXPECT_EQ(counts.fanned_out.at("chunk/split"), 2u);
  EXPECT_TRUE(counts.reconciles());
}

}  // namespace
}  // namespace winnow
