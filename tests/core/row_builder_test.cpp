#include "core/row_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "core/reason_table.h"
#include "core/run_counts.h"

namespace winnow {
namespace {

// A batch of `texts` read from shard 3, each record {"id":"d<i>","text":"...","u":<i>}.
struct Fixture {
  ReasonTable reasons;
  ReasonId split = reasons.add("chunk", 0, "split", RowOutcome::kFannedOut);
  ReasonId too_short = reasons.add("length", 1, "too_short");
  ReasonId merged = reasons.add("join", 2, "merged", RowOutcome::kMerged);
  DocBatch batch;
  std::string raw;

  explicit Fixture(const std::vector<std::string>& texts) {
    std::vector<std::pair<size_t, size_t>> spans;
    for (size_t i = 0; i < texts.size(); ++i) {
      size_t begin = raw.size();
      raw += "{\"id\":\"d" + std::to_string(i) + "\",\"text\":\"" + texts[i] +
             "\",\"u\":" + std::to_string(i) + "}";
      spans.push_back({begin, raw.size() - begin});
    }
    auto buffer = std::make_unique<char[]>(raw.size() + kRecordPadding);
    std::memcpy(buffer.get(), raw.data(), raw.size());
    batch.set_raw_buffer(std::move(buffer), raw.size());
    std::string_view bytes = batch.raw_bytes();
    for (size_t i = 0; i < texts.size(); ++i) {
      std::string_view record = bytes.substr(spans[i].first, spans[i].second);
      std::string_view text = record.substr(record.find("\"text\":\"") + 8, texts[i].size());
      batch.add_document(DocKey::make(3, i), "d" + std::to_string(i), false, text, record, i + 1);
    }
  }
};

TEST(RowBuilder, ChildrenFollowTheirParentWithDerivedKeysAndTheParentsFields) {
  Fixture f({"alpha beta", "gamma"});
  f.batch.annotation("score", AnnotationType::kFloat).set_float(0, 0.25);
  std::string_view alpha = f.batch.text(0).substr(0, 5);
  std::string_view beta = f.batch.text(0).substr(6);
  RowBuilder out(f.batch);
  EXPECT_EQ(out.carry_as(0, f.split), 0u);
  EXPECT_EQ(out.add_child(0, 0, f.split, alpha), 1u);
  EXPECT_EQ(out.add_child(0, 1, f.split, beta), 2u);
  EXPECT_EQ(out.carry(1), 3u);
  out.finish();

  ASSERT_EQ(f.batch.size(), 4u);
  EXPECT_FALSE(f.batch.kept(0));
  EXPECT_EQ(f.batch.drop_reason(0), f.split);
  EXPECT_EQ(f.batch.text(1), "alpha");
  EXPECT_EQ(f.batch.text(1).data(), alpha.data());  // a view into the parent's text, no copy
  EXPECT_EQ(f.batch.text(2), "beta");
  EXPECT_EQ(f.batch.key(1), DocKey::child(DocKey::make(3, 0), 0));
  EXPECT_EQ(f.batch.key(2), DocKey::child(DocKey::make(3, 0), 1));
  EXPECT_EQ(f.batch.id(1), "d0-0");
  EXPECT_EQ(f.batch.id(2), "d0-1");
  EXPECT_TRUE(f.batch.id_generated(1));  // written in place of the record's id
  EXPECT_TRUE(f.batch.text_changed(1));
  EXPECT_EQ(f.batch.record(1), f.batch.record(0));  // every other field comes along
  const RowLineage& child = f.batch.lineage(2);
  EXPECT_EQ(child.parent, DocKey::make(3, 0));
  EXPECT_EQ(child.origin, f.split);
  EXPECT_EQ(child.depth, 1);
  EXPECT_EQ(child.index, 1u);
  EXPECT_EQ(f.batch.lineage(3).depth, 0);
  // Annotations follow their rows; children inherit the parent's.
  const AnnotationColumn* score = f.batch.find_annotation("score");
  ASSERT_NE(score, nullptr);
  EXPECT_TRUE(score->has(1) && score->has(2));
  EXPECT_EQ(score->float_at(2), 0.25);
  EXPECT_FALSE(score->has(3));
  EXPECT_EQ(f.batch.text(3), "gamma");
}

TEST(RowBuilder, TextFromElsewhereIsCopiedIntoTheBatch) {
  Fixture f({"abc"});
  RowBuilder out(f.batch);
  out.carry_as(0, f.split);
  {
    std::string scratch = "made up";
    out.add_child(0, 0, f.split, scratch);
    scratch.assign(scratch.size(), '#');
  }
  out.finish();
  EXPECT_EQ(f.batch.text(1), "made up");
}

TEST(RowBuilder, AMergedRowIsItsModelWithNewText) {
  Fixture f({"one two"});
  f.batch.annotation("lang", AnnotationType::kString).set_string(0, "en");
  {
    RowBuilder out(f.batch);
    out.carry_as(0, f.split);
    out.add_child(0, 0, f.split, f.batch.text(0).substr(0, 3));
    out.add_child(0, 1, f.split, f.batch.text(0).substr(4));
    out.finish();
  }
  f.batch.drop(2, f.too_short);
  RowBuilder out(f.batch);
  out.carry(0);
  out.carry_as(1, f.merged);
  out.carry(2);
  EXPECT_EQ(out.add_merged(0, f.merged, "one"), 3u);
  out.finish();
  ASSERT_EQ(f.batch.size(), 4u);
  EXPECT_TRUE(f.batch.kept(3));
  EXPECT_EQ(f.batch.key(3), DocKey::make(3, 0));
  EXPECT_EQ(f.batch.id(3), "d0");
  EXPECT_EQ(f.batch.text(3), "one");
  EXPECT_EQ(f.batch.lineage(3).depth, 0);
  EXPECT_EQ(f.batch.lineage(3).origin, f.merged);
  EXPECT_EQ(f.batch.find_annotation("lang")->string_at(3), "en");
  EXPECT_EQ(f.batch.drop_reason(2), f.too_short);  // untouched
}

TEST(RowBuilder, EveryRowIsCountedOnceAtItsLevel) {
  Fixture f({"a b", "c", "d e f"});
  {
    RowBuilder out(f.batch);
    out.carry_as(0, f.split);
    out.add_child(0, 0, f.split, "a");
    out.add_child(0, 1, f.split, "b");
    out.carry(1);
    out.carry_as(2, f.split);
    for (uint32_t j = 0; j < 3; ++j) out.add_child(2, j, f.split, "x");
    out.finish();
  }
  f.batch.drop(2, f.too_short);  // "b"
  f.batch.drop(6, f.too_short);
  {
    RowBuilder out(f.batch);  // join d0's kept piece, and d2's two
    out.carry(0);
    out.carry_as(1, f.merged);
    out.carry(2);
    out.add_merged(0, f.merged, "a");
    out.carry(3);
    out.carry(4);
    out.carry_as(5, f.merged);
    out.carry(6);
    out.carry_as(7, f.merged);
    out.add_merged(4, f.merged, "x x");
    out.finish();
  }
  InputErrorRecord error;
  error.kind = InputError::kMalformedJson;
  f.batch.errors.push_back(error);
  RunCounts counts;
  counts.add_batch(f.batch, f.reasons, ItemKind::kDocument);
  EXPECT_EQ(counts.documents, 4u);  // three rows read, one error
  EXPECT_EQ(counts.kept, 3u);       // d1, and the two joined documents
  EXPECT_EQ(counts.children.at("chunk/split"), 5u);
  EXPECT_EQ(counts.fanned_out.at("chunk/split"), 2u);
  EXPECT_EQ(counts.merged.at("join/merged"), 3u);
  EXPECT_EQ(counts.merge_results.at("join/merged"), 2u);
  EXPECT_EQ(counts.dropped.at("length/too_short"), 2u);
  const LevelCounts& top = counts.levels.at("document@0");
  EXPECT_EQ(top.created, 6u);  // 3 read + 1 error + 2 joined
  EXPECT_EQ(top.kept, 3u);
  EXPECT_EQ(top.fanned_out, 2u);
  EXPECT_EQ(top.errors, 1u);
  const LevelCounts& pieces = counts.levels.at("document@1");
  EXPECT_EQ(pieces.created, 5u);
  EXPECT_EQ(pieces.dropped, 2u);
  EXPECT_EQ(pieces.merged, 3u);
  EXPECT_TRUE(counts.reconciles());
  // Losing a row anywhere breaks it.
  RunCounts broken = counts;
  ++broken.levels["document@1"].created;
  EXPECT_FALSE(broken.reconciles());
  broken = counts;
  --broken.kept;
  EXPECT_FALSE(broken.reconciles());
  // And the counts survive a round trip through JSON (completion markers).
  JsonWriter json(false);
  counts.write_json(json);
  auto parsed = RunCounts::parse_json(json.take());
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
  EXPECT_EQ(parsed->levels.at("document@1").merged, 3u);
  EXPECT_EQ(parsed->merge_results, counts.merge_results);
  EXPECT_TRUE(parsed->reconciles());
}

TEST(RowBuilder, ARowLeftOutOrCarriedTwiceFailsLoudly) {
  Fixture f({"a", "b", "c"});
  {
    RowBuilder out(f.batch);
    out.carry(0);
    EXPECT_THROW(out.carry(2), std::logic_error);  // row 1 skipped
  }
  {
    RowBuilder out(f.batch);
    out.carry(0);
    EXPECT_THROW(out.carry(0), std::logic_error);
  }
  RowBuilder out(f.batch);
  out.carry(0);
  out.carry(1);
  EXPECT_THROW(out.finish(), std::logic_error);  // row 2 never carried
  EXPECT_EQ(f.batch.size(), 3u);                  // and the batch is left as it was
}

TEST(RowBuilder, MediaItemsKeepTheirPayloadAndKind) {
  DocBatch batch;
  batch.add_item(DocKey::make(0, 0), ItemKind::kImage, "cat.png",
                 Payload::of_bytes("\x89PNG-bytes", "image/png"), 0);
  ReasonTable reasons;
  ReasonId split = reasons.add("tile", 0, "split", RowOutcome::kFannedOut);
  RowBuilder out(batch);
  out.carry_as(0, split);
  size_t child = out.add_child(0, 0, split, {});
  out.set_payload(child, batch.payload(0)->slice(1, 3));
  out.finish();
  ASSERT_NE(batch.payload(1), nullptr);
  EXPECT_EQ(batch.kind(1), ItemKind::kImage);
  EXPECT_EQ(batch.payload(1)->bytes(), "PNG");
  EXPECT_EQ(batch.payload(1)->buffer, batch.payload(0)->buffer);  // shared, not copied
  EXPECT_EQ(batch.payload(0)->media_type, "image/png");
}

}  // namespace
}  // namespace winnow
