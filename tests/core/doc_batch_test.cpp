#include "core/doc_batch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace winnow {
namespace {

// A batch whose raw buffer holds `raw` (padded like the reader's).
DocBatch batch_with_raw(std::string_view raw) {
  DocBatch batch;
  auto buffer = std::make_unique<char[]>(raw.size() + kRecordPadding);
  std::memcpy(buffer.get(), raw.data(), raw.size());
  std::memset(buffer.get() + raw.size(), ' ', kRecordPadding);
  batch.set_raw_buffer(std::move(buffer), raw.size());
  return batch;
}

bool inside(std::string_view part, std::string_view whole) {
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

TEST(DocBatch, TextInTheRawBufferIsNotCopied) {
  DocBatch batch = batch_with_raw("{\"id\":\"a1\",\"text\":\"hello\"}");
  std::string_view raw = batch.raw_bytes();
  std::string_view id = raw.substr(7, 2);
  std::string_view text = raw.substr(19, 5);
  ASSERT_EQ(text, "hello");
  batch.add_document(DocKey::make(0, 0), id, false, text, raw, 1);
  EXPECT_EQ(batch.text(0).data(), text.data());
  EXPECT_EQ(batch.id(0).data(), id.data());
  EXPECT_EQ(batch.record(0).data(), raw.data());
}

TEST(DocBatch, TextOutsideTheRawBufferIsCopied) {
  DocBatch batch = batch_with_raw("{\"text\":\"caf\\u00e9\"}");
  std::string_view raw = batch.raw_bytes();
  {
    // Unescaped text lives in a parser's buffer that is reused: the batch must copy it.
    std::string text = "caf\xc3\xa9";
    std::string id = "generated-id";
    batch.add_document(DocKey::make(1, 2), id, true, text, raw, 3);
    EXPECT_NE(batch.text(0).data(), text.data());
    EXPECT_NE(batch.id(0).data(), id.data());
    text.assign(text.size(), '#');
    id.assign(id.size(), '#');
  }
  EXPECT_FALSE(inside(batch.text(0), raw));
  EXPECT_EQ(batch.text(0), "caf\xc3\xa9");
  EXPECT_EQ(batch.id(0), "generated-id");
  EXPECT_TRUE(batch.id_generated(0));
  EXPECT_EQ(batch.key(0), DocKey::make(1, 2));
  EXPECT_EQ(batch.line(0), 3u);
}

TEST(DocBatch, TextStraddlingTheRawBufferEndIsCopied) {
  std::string storage = "abcdefgh";
  DocBatch batch = batch_with_raw(storage);
  std::string_view raw = batch.raw_bytes();
  // Starts inside the raw buffer but runs into the padding: not wholly in the buffer.
  std::string_view straddling(raw.data() + 6, 4);
  batch.add_document(DocKey::make(0, 0), "i", false, straddling, raw, 1);
  EXPECT_NE(batch.text(0).data(), straddling.data());
  EXPECT_EQ(batch.text(0), std::string_view("gh  "));
}

TEST(DocBatch, ManyCopiedTextsStayValid) {
  DocBatch batch = batch_with_raw("{}");
  std::vector<std::string> expected;
  for (int i = 0; i < 3000; ++i) {
    std::string text = std::to_string(i) + std::string(static_cast<size_t>(i % 1500), 'a' + i % 26);
    expected.push_back(text);
    batch.add_document(DocKey::make(0, i), "id" + std::to_string(i), false, text, batch.raw_bytes(),
                       i + 1);
  }
  ASSERT_EQ(batch.size(), 3000u);
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(batch.text(i), expected[i]);
    ASSERT_EQ(batch.id(i), "id" + std::to_string(i));
  }
}

DocBatch three_docs() {
  DocBatch batch = batch_with_raw("{\"text\":\"a\"}\n{\"text\":\"b\"}\n{\"text\":\"c\"}\n");
  std::string_view raw = batch.raw_bytes();
  for (int i = 0; i < 3; ++i) {
    std::string_view record = raw.substr(static_cast<size_t>(i) * 13, 12);
    batch.add_document(DocKey::make(0, i), std::to_string(i), false, record.substr(9, 1), record,
                       i + 1);
  }
  return batch;
}

TEST(DocBatch, NewDocumentsAreKeptWithoutScore) {
  DocBatch batch = three_docs();
  EXPECT_EQ(batch.kept_count(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(batch.kept(i));
    EXPECT_EQ(batch.drop_reason(i), kKept);
    EXPECT_TRUE(std::isnan(batch.drop_score(i)));
    EXPECT_FALSE(batch.text_changed(i));
    EXPECT_FALSE(batch.id_generated(i));
  }
}

TEST(DocBatch, DropAndKeptCount) {
  DocBatch batch = three_docs();
  batch.drop(1, 4, 0.75);
  EXPECT_EQ(batch.kept_count(), 2u);
  EXPECT_FALSE(batch.kept(1));
  EXPECT_EQ(batch.drop_reason(1), 4);
  EXPECT_EQ(batch.drop_score(1), 0.75);
  EXPECT_TRUE(batch.kept(0));
  EXPECT_TRUE(batch.kept(2));
  batch.drop(2, 9);
  EXPECT_EQ(batch.kept_count(), 1u);
  EXPECT_EQ(batch.drop_reason(2), 9);
  EXPECT_TRUE(std::isnan(batch.drop_score(2)));
  // A later drop overwrites the reason and the score.
  batch.drop(1, 5);
  EXPECT_EQ(batch.drop_reason(1), 5);
  EXPECT_TRUE(std::isnan(batch.drop_score(1)));
  EXPECT_EQ(batch.kept_count(), 1u);
}

TEST(DocBatch, AnnotationsAreSizedToTheBatch) {
  DocBatch batch = three_docs();
  AnnotationColumn& score = batch.annotation("score", AnnotationType::kFloat);
  EXPECT_EQ(score.name(), "score");
  EXPECT_EQ(score.type(), AnnotationType::kFloat);
  for (size_t i = 0; i < 3; ++i) EXPECT_FALSE(score.has(i));
  score.set_float(2, 0.5);  // the last row exists
  EXPECT_TRUE(score.has(2));
  EXPECT_FALSE(score.has(0));
  EXPECT_EQ(score.float_at(2), 0.5);

  AnnotationColumn& length = batch.annotation("length", AnnotationType::kInt);
  length.set_int(0, -42);
  AnnotationColumn& lang = batch.annotation("lang", AnnotationType::kString);
  lang.set_string(1, "fr");
  EXPECT_EQ(length.int_at(0), -42);
  EXPECT_EQ(lang.string_at(1), "fr");
  EXPECT_FALSE(lang.has(0));

  // Asking again returns the same column, with its values.
  EXPECT_EQ(&batch.annotation("score", AnnotationType::kFloat), &score);
  EXPECT_EQ(batch.find_annotation("score"), &score);
  EXPECT_EQ(batch.find_annotation("length"), &length);
  EXPECT_EQ(batch.find_annotation("missing"), nullptr);
  ASSERT_EQ(batch.annotations().size(), 3u);
  EXPECT_EQ(batch.annotations()[0]->name(), "score");
  EXPECT_EQ(batch.annotations()[2]->name(), "lang");
}

TEST(DocBatch, SetTextMarksOnlyThatDocumentChanged) {
  DocBatch batch = three_docs();
  std::string replacement = "new text for b";
  batch.set_text(1, replacement);
  replacement.assign(replacement.size(), '?');
  EXPECT_TRUE(batch.text_changed(1));
  EXPECT_EQ(batch.text(1), "new text for b");
  EXPECT_FALSE(batch.text_changed(0));
  EXPECT_FALSE(batch.text_changed(2));
  EXPECT_EQ(batch.text(0), "a");
  // The record is untouched: the encoder rebuilds it from the record's other members.
  EXPECT_EQ(batch.record(1), "{\"text\":\"b\"}");
  // Setting an empty text is still a change.
  batch.set_text(2, "");
  EXPECT_TRUE(batch.text_changed(2));
  EXPECT_EQ(batch.text(2), "");
}

TEST(DocBatch, SetIdDoesNotChangeTheText) {
  DocBatch batch = three_docs();
  std::string id = "doc-00001";
  batch.set_id(1, id);
  id.assign(id.size(), '?');
  EXPECT_EQ(batch.id(1), "doc-00001");
  EXPECT_FALSE(batch.text_changed(1));
  EXPECT_FALSE(batch.id_generated(1));
}

}  // namespace
}  // namespace winnow
