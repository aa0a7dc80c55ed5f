#include "io/jsonl_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "io/shard_reader.h"
#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::TempDir;
using testing::write_file;

std::unique_ptr<DocBatch> make_batch(const std::vector<std::string>& lines, uint32_t shard = 0,
                                     uint64_t first_line = 1) {
  return testing::make_raw_batch(lines, shard, first_line);
}

std::unique_ptr<DocBatch> parse(const std::vector<std::string>& lines, ParseOptions options = {},
                                uint32_t shard = 0, uint64_t first_line = 1) {
  auto batch = make_batch(lines, shard, first_line);
  JsonlParser(options).parse(*batch, "in/shard.jsonl");
  return batch;
}

// The single error that one bad line must produce.
void expect_one_error(const std::string& line, InputError kind, ParseOptions options = {}) {
  SCOPED_TRACE(line);
  // Good lines around the bad one: only the bad one fails, and it is on line 2.
  auto batch = parse({"{\"text\":\"before\"}", line, "{\"text\":\"after\"}"}, options);
  ASSERT_EQ(batch->errors.size(), 1u);
  const InputErrorRecord& error = batch->errors[0];
  EXPECT_EQ(error.kind, kind) << input_error_name(error.kind) << ": " << error.message;
  EXPECT_EQ(error.line, 2u);
  EXPECT_EQ(error.byte_offset, std::string("{\"text\":\"before\"}\n").size());
  EXPECT_THAT(error.message, StartsWith("in/shard.jsonl:2: "));
  EXPECT_EQ(error.excerpt, line.substr(0, 256));
  ASSERT_EQ(batch->size(), 2u);
  EXPECT_EQ(batch->text(0), "before");
  EXPECT_EQ(batch->text(1), "after");
  EXPECT_EQ(batch->line(1), 3u);
  EXPECT_EQ(batch->blank_lines, 0u);
}

TEST(JsonlParser, MalformedJson) {
  for (std::string line : {"{\"text\":\"a\"", "{\"text\":\"a\",}", "{text:\"a\"}", "{\"text\":'a'}",
                           "not json at all", "{\"text\":\"a\"} trailing", "{\"text\":\"a\"}}",
                           "{\"text\":\"unterminated}", "{\"text\":\"a\" \"id\":1}"}) {
    expect_one_error(line, InputError::kMalformedJson);
  }
}

TEST(JsonlParser, NotAnObject) {
  for (std::string line :
       {"[1,2,3]", "[{\"text\":\"a\"}]", "42", "-1.5", "\"text\"", "true", "null"}) {
    expect_one_error(line, InputError::kNotAnObject);
  }
}

TEST(JsonlParser, MissingText) {
  for (std::string line : {"{}", "{\"id\":1}", "{\"Text\":\"case matters\"}",
                           "{\"meta\":{\"text\":\"nested does not count\"}}"}) {
    expect_one_error(line, InputError::kMissingText);
  }
}

TEST(JsonlParser, TextNotString) {
  for (std::string line : {"{\"text\":5}", "{\"text\":null}", "{\"text\":{\"a\":\"b\"}}",
                           "{\"text\":[\"a\"]}", "{\"text\":true}", "{\"text\":-0.5e3}"}) {
    expect_one_error(line, InputError::kTextNotString);
  }
}

TEST(JsonlParser, InvalidUtf8) {
  for (std::string line :
       {"{\"text\":\"bad \xff byte\"}", "{\"text\":\"overlong \xc0\xaf\"}",
        "{\"text\":\"surrogate \xed\xa0\x80\"}", "{\"text\":\"truncated \xe2\x82\"}",
        "{\"text\":\"ok\",\"meta\":\"\xfe\"}"}) {
    expect_one_error(line, InputError::kInvalidUtf8);
  }
}

TEST(JsonlParser, InvalidId) {
  for (std::string line : {"{\"text\":\"a\",\"id\":{\"x\":1}}", "{\"text\":\"a\",\"id\":[1]}",
                           "{\"text\":\"a\",\"id\":true}"}) {
    expect_one_error(line, InputError::kInvalidId);
  }
}

TEST(JsonlParser, ErrorExcerptIsCappedAndMessageNamesTheFile) {
  std::string line = "{\"text\":\"" + std::string(1000, 'z');  // unterminated
  auto batch = parse({line}, {}, 0, 41);
  ASSERT_EQ(batch->errors.size(), 1u);
  EXPECT_EQ(batch->errors[0].kind, InputError::kMalformedJson);
  EXPECT_EQ(batch->errors[0].excerpt, line.substr(0, 256));
  EXPECT_THAT(batch->errors[0].message, StartsWith("in/shard.jsonl:41: "));
  EXPECT_EQ(batch->size(), 0u);
}

TEST(JsonlParser, BlankLinesAreCountedNotErrors) {
  auto batch = parse({"", "   ", "\t", "\r", " \t \r", "{\"text\":\"x\"}", ""});
  EXPECT_TRUE(batch->errors.empty());
  EXPECT_EQ(batch->blank_lines, 6u);
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->line(0), 6u);
}

TEST(JsonlParser, SurroundingWhitespaceAndCrAreIgnored) {
  auto batch = parse({"  {\"text\":\"a\"}  ", "{\"text\":\"b\"}\r", "\t{ \"text\" : \"c\" }\t\r"});
  EXPECT_TRUE(batch->errors.empty());
  ASSERT_EQ(batch->size(), 3u);
  EXPECT_EQ(batch->text(0), "a");
  EXPECT_EQ(batch->record(0), "{\"text\":\"a\"}");
  EXPECT_EQ(batch->text(1), "b");
  EXPECT_EQ(batch->record(1), "{\"text\":\"b\"}");
  EXPECT_EQ(batch->record(2), "{ \"text\" : \"c\" }");
}

TEST(JsonlParser, ByteOrderMarkAtTheStartOfAFileIsSkipped) {
  auto batch = parse({"\xEF\xBB\xBF{\"text\":\"a\"}", "\xEF\xBB\xBF{\"text\":\"b\"}"});
  ASSERT_EQ(batch->size(), 1u);  // only at byte 0: a mark later in the stream is an error
  EXPECT_EQ(batch->record(0), "{\"text\":\"a\"}");
  ASSERT_EQ(batch->errors.size(), 1u);
  EXPECT_EQ(batch->errors[0].line, 2u);
}

TEST(JsonlParser, StringIdsAreKept) {
  auto batch = parse({"{\"id\":\"doc-1\",\"text\":\"a\"}",
                      "{\"text\":\"b\",\"id\":\"\\u00e9\\\"q\"}", "{\"text\":\"c\",\"id\":\"\"}"});
  ASSERT_EQ(batch->size(), 3u);
  EXPECT_EQ(batch->id(0), "doc-1");
  EXPECT_FALSE(batch->id_generated(0));
  EXPECT_EQ(batch->id(1), "\xc3\xa9\"q");
  EXPECT_EQ(batch->id(2), "");
  EXPECT_FALSE(batch->id_generated(2));
}

// Valid JSON that simdjson cannot hold as numbers: the record is a document, its record bytes
// unchanged, an id of such a number its text.
TEST(JsonlParser, NumbersPastWhatSimdjsonHoldsAreNotErrors) {
  std::string record =
      R"({"text":"a","id":123456789012345678901234567890,"n":[1e400,-9223372036854775809]})";
  auto batch = parse({record, R"({"text":"b","n":012})"});
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->id(0), "123456789012345678901234567890");
  EXPECT_EQ(batch->text(0), "a");
  EXPECT_EQ(batch->record(0), record);
  ASSERT_EQ(batch->errors.size(), 1u);  // a malformed number still is malformed
  EXPECT_EQ(batch->errors[0].kind, InputError::kMalformedJson);
}

TEST(JsonlParser, NumericIdsBecomeTheirDecimalText) {
  auto batch = parse({"{\"text\":\"a\",\"id\":42}", "{\"text\":\"a\",\"id\":-7}",
                      "{\"text\":\"a\",\"id\":0}", "{\"text\":\"a\",\"id\":18446744073709551615}",
                      "{\"text\":\"a\",\"id\":-9223372036854775808}",
                      "{\"text\":\"a\",\"id\": 1234567890123 }"});
  EXPECT_TRUE(batch->errors.empty());
  ASSERT_EQ(batch->size(), 6u);
  EXPECT_EQ(batch->id(0), "42");
  EXPECT_EQ(batch->id(1), "-7");
  EXPECT_EQ(batch->id(2), "0");
  EXPECT_EQ(batch->id(3), "18446744073709551615");
  EXPECT_EQ(batch->id(4), "-9223372036854775808");
  EXPECT_EQ(batch->id(5), "1234567890123");
  for (size_t i = 0; i < batch->size(); ++i) EXPECT_FALSE(batch->id_generated(i));
}

TEST(JsonlParser, MissingOrNullIdIsGenerated) {
  auto batch =
      parse({"{\"text\":\"a\"}", "{\"text\":\"b\",\"id\":null}", "{\"text\":\"c\",\"id\":\"x\"}"},
            {}, /*shard=*/7, /*first_line=*/100);
  ASSERT_EQ(batch->size(), 3u);
  EXPECT_TRUE(batch->id_generated(0));
  EXPECT_EQ(batch->id(0), JsonlParser::generated_id(DocKey::make(7, 99)));
  EXPECT_TRUE(batch->id_generated(1));
  EXPECT_EQ(batch->id(1), JsonlParser::generated_id(DocKey::make(7, 100)));
  EXPECT_NE(batch->id(0), batch->id(1));
  EXPECT_FALSE(batch->id_generated(2));
}

TEST(JsonlParser, GeneratedIdsAreDistinctAcrossShardsAndRows) {
  EXPECT_NE(JsonlParser::generated_id(DocKey::make(1, 2)),
            JsonlParser::generated_id(DocKey::make(2, 1)));
  EXPECT_NE(JsonlParser::generated_id(DocKey::make(0, 10)),
            JsonlParser::generated_id(DocKey::make(0, 1)));
  EXPECT_NE(JsonlParser::generated_id(DocKey::make(12, 3)),
            JsonlParser::generated_id(DocKey::make(1, 23)));
}

TEST(JsonlParser, KeyRowIsLineNumberMinusOne) {
  auto batch =
      parse({"{\"text\":\"a\"}", "", "{\"text\":\"b\"}", "oops", "{\"text\":\"c\"}"}, {}, 5, 1001);
  ASSERT_EQ(batch->size(), 3u);
  EXPECT_EQ(batch->key(0), DocKey::make(5, 1000));
  EXPECT_EQ(batch->line(0), 1001u);
  EXPECT_EQ(batch->key(1), DocKey::make(5, 1002));
  EXPECT_EQ(batch->line(1), 1003u);
  EXPECT_EQ(batch->key(2), DocKey::make(5, 1004));
  EXPECT_EQ(batch->line(2), 1005u);
  EXPECT_EQ(batch->blank_lines, 1u);
  ASSERT_EQ(batch->errors.size(), 1u);
  EXPECT_EQ(batch->errors[0].line, 1004u);
}

TEST(JsonlParser, CustomFieldNames) {
  ParseOptions options;
  options.text_field = "content";
  options.id_field = "doc_id";
  auto batch = parse({"{\"text\":\"ignored\",\"content\":\"real\",\"doc_id\":\"d1\",\"id\":\"no\"}",
                      "{\"content\":\"second\",\"id\":\"no\"}"},
                     options);
  EXPECT_TRUE(batch->errors.empty());
  ASSERT_EQ(batch->size(), 2u);
  EXPECT_EQ(batch->text(0), "real");
  EXPECT_EQ(batch->id(0), "d1");
  EXPECT_EQ(batch->text(1), "second");
  EXPECT_TRUE(batch->id_generated(1));
  // The default field names mean nothing now.
  auto missing = parse({"{\"text\":\"only the default\"}"}, options);
  ASSERT_EQ(missing->errors.size(), 1u);
  EXPECT_EQ(missing->errors[0].kind, InputError::kMissingText);
  EXPECT_THAT(missing->errors[0].message, HasSubstr("content"));
  auto bad_id = parse({"{\"content\":\"x\",\"doc_id\":[1]}"}, options);
  ASSERT_EQ(bad_id->errors.size(), 1u);
  EXPECT_EQ(bad_id->errors[0].kind, InputError::kInvalidId);
  EXPECT_THAT(bad_id->errors[0].message, HasSubstr("doc_id"));
}

TEST(JsonlParser, EscapedTextIsUnescaped) {
  auto batch = parse(
      {R"({"text":"line\nbreak \"quoted\" caf\u00e9 \ud83d\ude00 back\\slash \/ tab\t nul\u0000end"})"});
  ASSERT_TRUE(batch->errors.empty()) << batch->errors[0].message;
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->text(0),
            std::string("line\nbreak \"quoted\" caf\xc3\xa9 \xf0\x9f\x98\x80 back\\slash / "
                        "tab\t nul\0end",
                        56));
}

TEST(JsonlParser, RawUtf8TextIsKept) {
  auto batch = parse({"{\"text\":\"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80\"}"});
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->text(0), "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80");
}

TEST(JsonlParser, RecordIsTheWholeObject) {
  std::string line = "{ \"id\" : 1 ,  \"text\":\"a\" , \"meta\": {\"x\": [1, 2]} }";
  auto batch = parse({line});
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->record(0), line);
  // The record points into the batch's raw buffer (it is written back verbatim from there).
  std::string_view raw = batch->raw_bytes();
  EXPECT_GE(batch->record(0).data(), raw.data());
  EXPECT_LE(batch->record(0).data() + batch->record(0).size(), raw.data() + raw.size());
}

TEST(JsonlParser, TextsSurviveParsingLaterLines) {
  // The parser reuses one simdjson parser; earlier texts must not point into its buffers.
  std::vector<std::string> lines;
  for (int i = 0; i < 200; ++i) {
    lines.push_back("{\"text\":\"doc " + std::to_string(i) + " \\u00e9\\n" + std::string(i, 'x') +
                    "\"}");
  }
  auto batch = parse(lines);
  ASSERT_EQ(batch->size(), 200u);
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(batch->text(i), "doc " + std::to_string(i) + " \xc3\xa9\n" + std::string(i, 'x'));
  }
}

TEST(JsonlParser, LargeRecordAfterSmallOnes) {
  // The parser's capacity grows when a record is larger than any before it.
  std::string big(3u << 20, 'b');
  auto batch = parse({"{\"text\":\"s\"}", "{\"text\":\"" + big + "\"}", "{\"text\":\"t\"}"});
  ASSERT_TRUE(batch->errors.empty()) << batch->errors[0].message;
  ASSERT_EQ(batch->size(), 3u);
  EXPECT_EQ(batch->text(1).size(), big.size());
  EXPECT_TRUE(batch->text(1) == big);
  EXPECT_EQ(batch->text(2), "t");
}

TEST(JsonlParser, WorksOnReaderBatchesWithCrlf) {
  TempDir dir;
  std::string path = dir.file("crlf.jsonl");
  write_file(
      path,
      "{\"text\":\"a\"}\r\n\r\n{\"text\":\"b\",\"id\":3}\r\n{\"text\":1}\r\n{\"text\":\"c\"}");
  ShardReader reader(path, 2, ReaderOptions{});
  JsonlParser parser(ParseOptions{});
  std::vector<std::string> texts;
  std::vector<InputErrorRecord> errors;
  uint64_t blank = 0;
  while (auto batch = reader.next()) {
    parser.parse(*batch, path);
    for (size_t i = 0; i < batch->size(); ++i) texts.emplace_back(batch->text(i));
    for (auto& e : batch->errors) errors.push_back(e);
    blank += batch->blank_lines;
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(blank, 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, InputError::kTextNotString);
  EXPECT_THAT(errors[0].message, StartsWith(path + ":4: "));
}

}  // namespace
}  // namespace winnow
