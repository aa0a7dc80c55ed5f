#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "core/row_builder.h"

namespace winnow {
namespace {

// A batch with a bit of everything: documents from a raw buffer, a dropped one with a score,
// a fan-out's children, a media item, annotations of each type, an error record.
std::unique_ptr<DocBatch> rich_batch(ReasonTable& reasons) {
  auto batch = std::make_unique<DocBatch>();
  batch->shard = 7;
  batch->sequence = 12;
  batch->raw_input_bytes = 4242;
  batch->blank_lines = 3;
  batch->skipped_records = 2;
  std::string raw = R"({"id":"a","text":"alpha beta"}{"id":"b","text":"x"})";
  auto buffer = std::make_unique<char[]>(raw.size() + kRecordPadding);
  std::memcpy(buffer.get(), raw.data(), raw.size());
  batch->set_raw_buffer(std::move(buffer), raw.size());
  std::string_view bytes = batch->raw_bytes();
  batch->add_document(DocKey::make(7, 100), "a", false, bytes.substr(18, 10), bytes.substr(0, 30),
                      101);
  batch->add_document(DocKey::make(7, 101), "gen-id", true, "x", bytes.substr(30), 102);
  batch->add_item(DocKey::make(7, 102), ItemKind::kImage, "cat.png",
                  Payload::of_bytes(std::string("\x89PNG\0\x01", 6), "image/png"), 103);
  ReasonId split = reasons.add("chunk", 0, "split", RowOutcome::kFannedOut);
  ReasonId too_short = reasons.add("length", 1, "too_short");
  batch->drop(1, too_short, 0.25);
  batch->annotation("score", AnnotationType::kFloat).set_float(0, 1.5);
  batch->annotation("n", AnnotationType::kInt).set_int(2, -9);
  batch->annotation("lang", AnnotationType::kString).set_string(0, "en");
  const float embedding[] = {0.5f, -1.25f, 3e-8f};
  batch->annotation("embedding", AnnotationType::kFloatVector).set_vector(0, embedding);
  batch->annotation("embedding", AnnotationType::kFloatVector).set_vector(2, {});
  RowBuilder rows(*batch);
  rows.carry_as(0, split);
  rows.add_child(0, 0, split, batch->text(0).substr(0, 5));
  rows.add_child(0, 1, split, "made up");
  rows.carry(1);
  rows.carry(2);
  rows.finish();
  batch->errors.push_back({InputError::kMalformedJson, 9, 1234, "f.jsonl:9: bad", "\xff{oops"});
  batch->stage_counts["strip/chars_removed"] = 5120;
  batch->stage_counts["pii/EMAIL_ADDRESS"] = 0;
  return batch;
}

TEST(DocBatchCodec, ABatchComesBackWhole) {
  ReasonTable reasons;
  auto batch = rich_batch(reasons);
  std::string bytes;
  batch->serialize(bytes);
  auto back = DocBatch::deserialize(bytes);
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  const DocBatch& b = **back;
  EXPECT_EQ(b.shard, 7u);
  EXPECT_EQ(b.sequence, 12u);
  EXPECT_EQ(b.raw_input_bytes, 4242u);
  EXPECT_EQ(b.blank_lines, 3u);
  EXPECT_EQ(b.skipped_records, 2u);
  EXPECT_EQ(b.stage_counts, batch->stage_counts);
  EXPECT_EQ(b.source_records(), batch->source_records());
  ASSERT_EQ(b.size(), batch->size());
  for (size_t i = 0; i < b.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(b.key(i), batch->key(i));
    EXPECT_EQ(b.id(i), batch->id(i));
    EXPECT_EQ(b.id_generated(i), batch->id_generated(i));
    EXPECT_EQ(b.text(i), batch->text(i));
    EXPECT_EQ(b.text_changed(i), batch->text_changed(i));
    EXPECT_EQ(b.record(i), batch->record(i));
    EXPECT_EQ(b.line(i), batch->line(i));
    EXPECT_EQ(b.drop_reason(i), batch->drop_reason(i));
    EXPECT_TRUE(b.drop_score(i) == batch->drop_score(i) ||
                (std::isnan(b.drop_score(i)) && std::isnan(batch->drop_score(i))));
    EXPECT_EQ(b.lineage(i).parent, batch->lineage(i).parent);
    EXPECT_EQ(b.lineage(i).origin, batch->lineage(i).origin);
    EXPECT_EQ(b.lineage(i).depth, batch->lineage(i).depth);
    EXPECT_EQ(b.lineage(i).index, batch->lineage(i).index);
    EXPECT_EQ(b.kind(i), batch->kind(i));
    EXPECT_EQ(b.payload(i) != nullptr, batch->payload(i) != nullptr);
    if (b.payload(i)) {
      EXPECT_EQ(b.payload(i)->bytes(), batch->payload(i)->bytes());
      EXPECT_EQ(b.payload(i)->media_type, "image/png");
    }
  }
  // One raw buffer, each record once: a parent's children share it.
  EXPECT_EQ(b.record(1).data(), b.record(0).data());
  EXPECT_EQ(b.record(2).data(), b.record(0).data());
  EXPECT_EQ(b.record(0).data() + b.record(0).size(), b.record(3).data());
  EXPECT_EQ(b.find_annotation("score")->float_at(1), 1.5);  // inherited by the child
  EXPECT_EQ(b.find_annotation("n")->int_at(4), -9);
  EXPECT_FALSE(b.find_annotation("lang")->has(3));
  const AnnotationColumn& embedding = *b.find_annotation("embedding");
  EXPECT_EQ(embedding.type(), AnnotationType::kFloatVector);
  for (size_t row : {0, 1, 2}) {  // the parent's vector, inherited by both children
    ASSERT_TRUE(embedding.has(row));
    EXPECT_EQ(std::vector<float>(embedding.vector_at(row).begin(), embedding.vector_at(row).end()),
              (std::vector<float>{0.5f, -1.25f, 3e-8f}));
  }
  EXPECT_FALSE(embedding.has(3));
  ASSERT_TRUE(embedding.has(4));  // an empty vector is a value
  EXPECT_TRUE(embedding.vector_at(4).empty());
  ASSERT_EQ(b.errors.size(), 1u);
  EXPECT_EQ(b.errors[0].message, "f.jsonl:9: bad");
  EXPECT_EQ(b.errors[0].excerpt, "\xff{oops");
  EXPECT_EQ(b.errors[0].byte_offset, 1234u);
  // And again: the format is stable.
  std::string again;
  b.serialize(again);
  EXPECT_TRUE(again == bytes);
}

TEST(DocBatchCodec, DamagedBytesAreAnErrorNeverACrash) {
  ReasonTable reasons;
  auto batch = rich_batch(reasons);
  std::string bytes;
  batch->serialize(bytes);
  EXPECT_FALSE(DocBatch::deserialize("").is_ok());
  EXPECT_FALSE(DocBatch::deserialize("WNB2").is_ok());
  // A batch stored in the format before stage counts is refused, never misread.
  EXPECT_FALSE(DocBatch::deserialize("WNB1" + bytes.substr(4)).is_ok());
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    EXPECT_FALSE(DocBatch::deserialize(std::string_view(bytes).substr(0, cut)).is_ok()) << cut;
  }
  EXPECT_FALSE(DocBatch::deserialize(bytes + "x").is_ok());
  std::string huge = bytes;
  uint64_t rows = uint64_t{1} << 60;  // a row count no batch has
  std::memcpy(huge.data() + 4 + 4 + 8 * 5, &rows, sizeof(rows));
  EXPECT_FALSE(DocBatch::deserialize(huge).is_ok());
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

// A WebDataset sample's payload (the whole buffer, the image's slice, every member) survives a
// pass stored between passes, so its tar can still be written byte for byte.
TEST(DocBatchCodec, SampleMembersComeBack) {
  DocBatch batch;
  Payload p = Payload::of_bytes(std::string("caption\x89PNG\r\n{\"a\":1}", 20), "image/png");
  p.offset = 7;
  p.size = 6;
  p.members = {{"d/k.txt", 0, 7, 1700000000, 0644},
               {"d/k.png", 7, 6, 1700000001, 0600},
               {"d/k.json", 13, 7, 5, 0640}};
  batch.add_item(DocKey::make(2, 9), ItemKind::kImage, "d/k", p, 0);
  std::string bytes;
  batch.serialize(bytes);
  auto back = DocBatch::deserialize(bytes);
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  const Payload* q = (*back)->payload(0);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->bytes(), p.bytes());
  ASSERT_EQ(q->members.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(q->members[i].name, p.members[i].name);
    EXPECT_EQ(q->member_bytes(q->members[i]), p.member_bytes(p.members[i]));
    EXPECT_EQ(q->members[i].mtime, p.members[i].mtime);
    EXPECT_EQ(q->members[i].mode, p.members[i].mode);
  }
  for (size_t cut = 0; cut < bytes.size(); cut += 5) {
    EXPECT_FALSE(DocBatch::deserialize(std::string_view(bytes).substr(0, cut)).is_ok()) << cut;
  }
}

}  // namespace
}  // namespace winnow
