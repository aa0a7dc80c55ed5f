#include "io/jsonl_encoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "io/jsonl_parser.h"
#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;
using testing::split_lines;
using ::testing::StartsWith;

std::unique_ptr<DocBatch> parsed_batch(const std::vector<std::string>& lines,
                                       ParseOptions options = {}, uint32_t shard = 0) {
  auto batch = testing::make_raw_batch(lines, shard);
  JsonlParser(options).parse(*batch, "in.jsonl");
  return batch;
}

// Every line of an output must be one JSON object; returns the lines.
std::vector<std::string> json_lines(const std::string& out) {
  EXPECT_TRUE(out.empty() || out.back() == '\n') << "output does not end in a newline";
  std::vector<std::string> lines = split_lines(out);
  simdjson::dom::parser parser;
  for (const std::string& line : lines) {
    simdjson::dom::element root;
    auto error = parser.parse(line).get(root);
    EXPECT_FALSE(error) << simdjson::error_message(error) << " in: " << line;
    if (!error) {
      EXPECT_TRUE(root.is_object()) << line;
    }
  }
  return lines;
}

// Parses one line and returns its members as (key, minified value) in order.
std::vector<std::pair<std::string, std::string>> members_of(const std::string& line) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  std::vector<std::pair<std::string, std::string>> out;
  if (parser.parse(line).get(object)) {
    ADD_FAILURE() << "not an object: " << line;
    return out;
  }
  for (auto field : object) out.emplace_back(std::string(field.key), simdjson::minify(field.value));
  return out;
}

std::string string_member(const std::string& line, const char* key) {
  simdjson::dom::parser parser;
  std::string_view value;
  auto error = parser.parse(line)[key].get(value);
  EXPECT_FALSE(error) << key << " in " << line;
  return error ? std::string() : std::string(value);
}

size_t count_key(const std::string& line, const std::string& key) {
  size_t n = 0;
  for (const auto& [k, v] : members_of(line)) n += k == key;
  return n;
}

TEST(JsonlEncoder, UnchangedDocumentIsWrittenVerbatim) {
  const std::vector<std::string> lines = {
      "{ \"id\" : 1 ,  \"text\":\"a\" , \"meta\": {\"x\": [1, 2]} }",
      "{\"text\":\"caf\\u00e9 \xe2\x9c\x93\",\"id\":\"k\",\"n\":1.50e+2}",
      "{\"id\":\"z\",\"text\":\"\",\"list\":[ ]  }"};
  auto batch = parsed_batch(lines);
  ASSERT_EQ(batch->size(), 3u);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  EXPECT_EQ(batch->encoded_kept, lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n");
  EXPECT_EQ(batch->encoded_rejected, "");
  EXPECT_EQ(batch->encoded_errors, "");
  json_lines(batch->encoded_kept);
}

TEST(JsonlEncoder, ChangedTextIsReescapedAndOtherMembersKeptByteForByte) {
  auto batch = parsed_batch(
      {"{ \"id\" : 1 ,  \"text\":\"a\" , \"meta\": {\"x\": [1, 2], \"s\":\"},{\"}  }"});
  ASSERT_EQ(batch->size(), 1u);
  const std::string new_text =
      std::string("quote \" backslash \\ newline \n tab \t ctrl \x01\x1f nul ") + '\0' +
      " caf\xc3\xa9 \xf0\x9f\x98\x80 slash / }{,";
  batch->set_text(0, new_text);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 1u);
  const std::string& line = lines[0];
  EXPECT_EQ(string_member(line, "text"), new_text);
  // Members other than the text are copied from the record as written.
  EXPECT_THAT(line, HasSubstr("\"id\" : 1"));
  EXPECT_THAT(line, HasSubstr("\"meta\": {\"x\": [1, 2], \"s\":\"},{\"}"));
  auto members = members_of(line);
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].first, "id");
  EXPECT_EQ(members[1].first, "text");
  EXPECT_EQ(members[2].first, "meta");
  // Control characters are escaped, the rest of UTF-8 is not.
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_THAT(line, HasSubstr("caf\xc3\xa9 \xf0\x9f\x98\x80"));
}

TEST(JsonlEncoder, ChangedTextOnlyAffectsThatDocument) {
  auto batch = parsed_batch(
      {"{\"text\":\"one\", \"k\":1, \"id\":1}", "{\"text\":\"two\", \"k\":2, \"id\":2}"});
  batch->set_text(1, "TWO");
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "{\"text\":\"one\", \"k\":1, \"id\":1}");
  EXPECT_EQ(string_member(lines[1], "text"), "TWO");
  EXPECT_THAT(lines[1], HasSubstr("\"k\":2"));
}

TEST(JsonlEncoder, AnnotationsAreAppendedAsFields) {
  auto batch = parsed_batch({"{\"id\":\"a\",\"text\":\"x\"}", "{\"id\":\"b\",\"text\":\"y\"}",
                             "{\"id\":\"c\",\"text\":\"z\"}"});
  batch->annotation("quality", AnnotationType::kFloat).set_float(0, 0.25);
  batch->annotation("length", AnnotationType::kInt).set_int(0, -3);
  batch->annotation("lang", AnnotationType::kString).set_string(0, "e\"n\n");
  batch->annotation("quality", AnnotationType::kFloat).set_float(2, 1e300);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 3u);
  auto m0 = members_of(lines[0]);
  ASSERT_EQ(m0.size(), 5u);
  EXPECT_EQ(m0[0], (std::pair<std::string, std::string>{"id", "\"a\""}));
  EXPECT_EQ(m0[1], (std::pair<std::string, std::string>{"text", "\"x\""}));
  EXPECT_EQ(m0[2].first, "quality");
  EXPECT_EQ(m0[3], (std::pair<std::string, std::string>{"length", "-3"}));
  EXPECT_EQ(m0[4].first, "lang");
  simdjson::dom::parser parser;
  double quality = 0;
  ASSERT_FALSE(parser.parse(lines[0])["quality"].get(quality));
  EXPECT_EQ(quality, 0.25);
  EXPECT_EQ(string_member(lines[0], "lang"), "e\"n\n");
  // Not annotated: verbatim. Partly annotated: only the columns it has.
  EXPECT_EQ(lines[1], "{\"id\":\"b\",\"text\":\"y\"}");
  auto m2 = members_of(lines[2]);
  ASSERT_EQ(m2.size(), 3u);
  EXPECT_EQ(m2[2].first, "quality");
  ASSERT_FALSE(parser.parse(lines[2])["quality"].get(quality));
  EXPECT_EQ(quality, 1e300);
}

TEST(JsonlEncoder, LargeFloatAnnotationCanBeReadBack) {
  auto batch = parsed_batch({"{\"id\":0,\"text\":\"x\"}"});
  batch->annotation("big", AnnotationType::kFloat).set_float(0, 1.4522067572409514e20);
  batch->annotation("neg", AnnotationType::kFloat).set_float(0, -3.0e25);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  // winnow must be able to read what it wrote: parse the output as a new input.
  std::string line = batch->encoded_kept.substr(0, batch->encoded_kept.size() - 1);
  auto again = parsed_batch({line});
  ASSERT_TRUE(again->errors.empty()) << again->errors[0].message << " in " << line;
  ASSERT_EQ(again->size(), 1u);
  simdjson::dom::parser parser;
  double big = 0, neg = 0;
  ASSERT_FALSE(parser.parse(line)["big"].get(big));
  ASSERT_FALSE(parser.parse(line)["neg"].get(neg));
  EXPECT_EQ(big, 1.4522067572409514e20);
  EXPECT_EQ(neg, -3.0e25);
}

TEST(JsonlEncoder, NonFiniteFloatAnnotationIsNull) {
  auto batch = parsed_batch({"{\"id\":0,\"text\":\"x\"}"});
  batch->annotation("score", AnnotationType::kFloat).set_float(0, std::nan(""));
  batch->annotation("inf", AnnotationType::kFloat).set_float(0, INFINITY);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 1u);
  auto m = members_of(lines[0]);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[2], (std::pair<std::string, std::string>{"score", "null"}));
  EXPECT_EQ(m[3], (std::pair<std::string, std::string>{"inf", "null"}));
}

// An embedding is written as an array of the floats' shortest round-trip forms, so reading
// the output back as float32 gives the very same vector.
TEST(JsonlEncoder, FloatVectorAnnotationIsAJsonArray) {
  auto batch = parsed_batch({"{\"id\":0,\"text\":\"x\"}", "{\"id\":1,\"text\":\"y\"}"});
  const std::vector<float> vector = {0.1f, -2.0f, 1e-30f, 3.4028235e38f, 0.0f, 0.33333334f};
  AnnotationColumn& column = batch->annotation("embedding", AnnotationType::kFloatVector);
  column.set_vector(0, vector);
  column.set_vector(1, {});
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "{\"id\":0,\"text\":\"x\",\"embedding\":[0.1,-2,1e-30,3.4028235e+38,0,0.33333334]}");
  EXPECT_EQ(lines[1], "{\"id\":1,\"text\":\"y\",\"embedding\":[]}");
  simdjson::dom::parser parser;
  simdjson::dom::array array;
  ASSERT_FALSE(parser.parse(lines[0])["embedding"].get(array));
  std::vector<float> back;
  for (auto value : array) back.push_back(static_cast<float>(value.get_double().value()));
  EXPECT_EQ(back, vector);
}

TEST(JsonlEncoder, AnnotationReplacesAFieldOfTheSameName) {
  auto batch = parsed_batch({"{\"lang\":\"xx\",\"text\":\"hello\",\"n\":7,\"id\":\"q\"}"});
  batch->annotation("lang", AnnotationType::kString).set_string(0, "en");
  batch->annotation("n", AnnotationType::kInt).set_int(0, 8);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(count_key(lines[0], "lang"), 1u);
  EXPECT_EQ(count_key(lines[0], "n"), 1u);
  EXPECT_EQ(string_member(lines[0], "lang"), "en");
  EXPECT_EQ(string_member(lines[0], "text"), "hello");
  simdjson::dom::parser parser;
  int64_t n = 0;
  ASSERT_FALSE(parser.parse(lines[0])["n"].get(n));
  EXPECT_EQ(n, 8);
  EXPECT_EQ(members_of(lines[0]).size(), 4u);
}

TEST(JsonlEncoder, GeneratedIdIsAppended) {
  auto batch = parsed_batch({"{\"text\":\"no id\"}", "{\"id\":null,\"text\":\"null id\"}"}, {}, 4);
  ASSERT_EQ(batch->size(), 2u);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "{\"text\":\"no id\",\"id\":\"" +
                          JsonlParser::generated_id(DocKey::make(4, 0)) + "\"}");
  // A null id is replaced, not duplicated.
  EXPECT_EQ(count_key(lines[1], "id"), 1u);
  EXPECT_EQ(string_member(lines[1], "id"), JsonlParser::generated_id(DocKey::make(4, 1)));
  EXPECT_EQ(string_member(lines[1], "text"), "null id");
}

// add_id writes an annotation named like the id field; on a document whose id was generated
// that annotation must be the only id written.
TEST(JsonlEncoder, IdAnnotationWinsOverAGeneratedId) {
  auto batch = parsed_batch({"{\"text\":\"no id\"}", "{\"text\":\"has id\",\"id\":9}"});
  ASSERT_EQ(batch->size(), 2u);
  AnnotationColumn& ids = batch->annotation("id", AnnotationType::kString);
  for (size_t i = 0; i < 2; ++i) {
    ids.set_string(i, "doc-" + std::to_string(i));
    batch->set_id(i, "doc-" + std::to_string(i));
  }
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(count_key(lines[i], "id"), 1u) << lines[i];
    EXPECT_EQ(string_member(lines[i], "id"), "doc-" + std::to_string(i));
  }
}

TEST(JsonlEncoder, CustomFieldNames) {
  ParseOptions parse;
  parse.text_field = "body";
  parse.id_field = "uid";
  auto batch = parsed_batch({"{\"text\":\"not me\",\"body\":\"me\"}"}, parse);
  ASSERT_EQ(batch->size(), 1u);
  batch->set_text(0, "changed");
  EncodeOptions encode;
  encode.text_field = "body";
  encode.id_field = "uid";
  ReasonTable reasons;
  JsonlEncoder(encode, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(string_member(lines[0], "text"), "not me");
  EXPECT_EQ(string_member(lines[0], "body"), "changed");
  EXPECT_EQ(string_member(lines[0], "uid"), JsonlParser::generated_id(DocKey::make(0, 0)));
  EXPECT_EQ(count_key(lines[0], "id"), 0u);
}

TEST(JsonlEncoder, RejectedDocumentsCarryTheDropReason) {
  auto batch =
      parsed_batch({"{\"id\":1,\"text\":\"kept\"}", "{\"id\":2,\"text\":\"short\"}",
                    "{\"id\":3, \"text\":\"sampled\"}", "{\"id\":4,\"text\":\"changed\"}"});
  ReasonTable reasons;
  ReasonId too_short = reasons.add("length", 0, "too_short");
  ReasonId sampled = reasons.add("sample \"x\"", 1, "not_sampled");
  batch->drop(1, too_short, 3.5);
  batch->drop(2, sampled);
  batch->set_text(3, "CHANGED");
  batch->drop(3, too_short, -0.0);
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  EXPECT_EQ(batch->encoded_kept, "{\"id\":1,\"text\":\"kept\"}\n");
  std::vector<std::string> lines = json_lines(batch->encoded_rejected);
  ASSERT_EQ(lines.size(), 3u);

  simdjson::dom::parser parser;
  simdjson::dom::object drop;
  ASSERT_FALSE(parser.parse(lines[0])["winnow_drop"].get(drop));
  EXPECT_EQ(std::string_view(drop["stage"].get_string().value()), "length");
  EXPECT_EQ(std::string_view(drop["reason"].get_string().value()), "too_short");
  EXPECT_EQ(double(drop["score"].get_double().value()), 3.5);
  EXPECT_THAT(lines[0], StartsWith("{\"id\":2,\"text\":\"short\","));
  EXPECT_EQ(count_key(lines[0], "winnow_drop"), 1u);

  ASSERT_FALSE(parser.parse(lines[1])["winnow_drop"].get(drop));
  EXPECT_EQ(std::string_view(drop["stage"].get_string().value()), "sample \"x\"");
  EXPECT_EQ(std::string_view(drop["reason"].get_string().value()), "not_sampled");
  EXPECT_EQ(drop.size(), 2u) << "no score when the score is NaN: " << lines[1];
  EXPECT_THAT(lines[1], HasSubstr("\"id\":3"));

  // A changed and dropped document is written with its new text.
  EXPECT_EQ(string_member(lines[2], "text"), "CHANGED");
  ASSERT_FALSE(parser.parse(lines[2])["winnow_drop"].get(drop));
  EXPECT_EQ(drop.size(), 3u);
}

TEST(JsonlEncoder, RejectedOutputCanBeSwitchedOff) {
  auto batch = parsed_batch({"{\"text\":\"a\",\"id\":1}", "{\"text\":\"b\",\"id\":2}"});
  ReasonTable reasons;
  batch->drop(0, reasons.add("s", 0, "r"), 1.0);
  EncodeOptions options;
  options.write_rejected = false;
  JsonlEncoder(options, reasons).encode(*batch, "in.jsonl");
  EXPECT_EQ(batch->encoded_kept, "{\"text\":\"b\",\"id\":2}\n");
  EXPECT_EQ(batch->encoded_rejected, "");
}

TEST(JsonlEncoder, ErrorRecordsAreJsonLines) {
  auto batch = parsed_batch({"{\"text\":\"ok\",\"id\":1}", "{\"text\":\"bad \xff\xfe utf8\"}",
                             "[1]", "{\"text\":\"unterminated"});
  ASSERT_EQ(batch->errors.size(), 3u);
  // A stream-level error as the reader makes them: no line, control bytes in the excerpt.
  InputErrorRecord stream_error;
  stream_error.kind = InputError::kTruncatedCompressed;
  stream_error.line = 0;
  stream_error.byte_offset = 12345;
  stream_error.message = "in.jsonl: truncated \"zstd\" stream";
  stream_error.excerpt = std::string("\x01\x02\xc3", 3);
  batch->errors.push_back(stream_error);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "dir/in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_errors);
  ASSERT_EQ(lines.size(), 4u);

  simdjson::dom::parser parser;
  simdjson::dom::element e;
  ASSERT_FALSE(parser.parse(lines[0]).get(e));
  EXPECT_EQ(std::string_view(e["file"].get_string().value()), "dir/in.jsonl");
  EXPECT_EQ(uint64_t(e["line"].get_uint64().value()), 2u);
  EXPECT_EQ(uint64_t(e["byte_offset"].get_uint64().value()), 21u);  // after {"text":"ok","id":1}\n
  EXPECT_EQ(std::string_view(e["error"].get_string().value()), "invalid_utf8");
  EXPECT_THAT(std::string(e["message"].get_string().value()), StartsWith("in.jsonl:2: "));
  // The invalid bytes became U+FFFD; the rest of the excerpt is intact.
  EXPECT_EQ(std::string_view(e["excerpt"].get_string().value()),
            "{\"text\":\"bad \xef\xbf\xbd\xef\xbf\xbd utf8\"}");

  ASSERT_FALSE(parser.parse(lines[1]).get(e));
  EXPECT_EQ(std::string_view(e["error"].get_string().value()), "not_an_object");
  EXPECT_EQ(uint64_t(e["line"].get_uint64().value()), 3u);
  EXPECT_EQ(std::string_view(e["excerpt"].get_string().value()), "[1]");

  ASSERT_FALSE(parser.parse(lines[2]).get(e));
  EXPECT_EQ(std::string_view(e["error"].get_string().value()), "malformed_json");

  ASSERT_FALSE(parser.parse(lines[3]).get(e));
  EXPECT_EQ(std::string_view(e["error"].get_string().value()), "truncated_compressed");
  EXPECT_EQ(uint64_t(e["line"].get_uint64().value()), 0u);
  EXPECT_EQ(uint64_t(e["byte_offset"].get_uint64().value()), 12345u);
  EXPECT_EQ(std::string_view(e["message"].get_string().value()),
            "in.jsonl: truncated \"zstd\" stream");
  EXPECT_EQ(std::string_view(e["excerpt"].get_string().value()), "\x01\x02\xef\xbf\xbd");

  EXPECT_EQ(batch->encoded_kept, "{\"text\":\"ok\",\"id\":1}\n");
}

TEST(JsonlEncoder, WriteDocumentAppendsExtraMembers) {
  auto batch = parsed_batch({"{\"text\":\"a\",\"k\":[1,{\"b\":2}],\"id\":\"i\"}"});
  ReasonTable reasons;
  JsonlEncoder encoder(EncodeOptions{}, reasons);
  std::string out = "prefix\n";
  encoder.write_document(out, *batch, 0, "\"extra\":{\"x\":1}");
  EXPECT_EQ(out, "prefix\n{\"text\":\"a\",\"k\":[1,{\"b\":2}],\"id\":\"i\",\"extra\":{\"x\":1}}\n");
  out.clear();
  encoder.write_document(out, *batch, 0, {});
  EXPECT_EQ(out, "{\"text\":\"a\",\"k\":[1,{\"b\":2}],\"id\":\"i\"}\n");
}

TEST(JsonlEncoder, EmptyTextChangedWithAnnotation) {
  auto batch = parsed_batch({"{\"text\":\"\",\"id\":5}"});
  batch->set_text(0, "now set");
  batch->annotation("a", AnnotationType::kInt).set_int(0, 1);
  ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in.jsonl");
  std::vector<std::string> lines = json_lines(batch->encoded_kept);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "{\"text\":\"now set\",\"id\":5,\"a\":1}");
}

}  // namespace
}  // namespace winnow
