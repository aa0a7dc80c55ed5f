#include "io/shard_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow {
namespace {

using testing::compress;
using ::testing::HasSubstr;
using testing::TempDir;
using testing::write_file;

struct Line {
  std::string text;
  uint64_t line_number;
  uint64_t byte_offset;
  uint64_t batch;
};

struct ReadAll {
  std::vector<Line> lines;
  std::vector<InputErrorRecord> errors;
  std::vector<uint64_t> error_batches;  // batch sequence of each error
  size_t batches = 0;                   // including the end_of_shard batch
  uint64_t raw_input_bytes = 0;
  size_t max_buffer_bytes = 0;
  uint64_t compressed_bytes_read = 0;
};

// Drains a reader, checking the batch protocol on the way: sequence numbers 0..n contiguous,
// the shard index on every batch, at most batch_lines lines per batch, one final batch that is
// empty and marked end_of_shard, and null after it.
ReadAll read_all(const std::string& path, ReaderOptions options, uint32_t shard = 3) {
  ReadAll out;
  ShardReader reader(path, shard, options);
  uint64_t expected_sequence = 0;
  while (true) {
    std::unique_ptr<DocBatch> batch = reader.next();
    if (!batch) {
      ADD_FAILURE() << "null before the end_of_shard batch";
      break;
    }
    ++out.batches;
    EXPECT_EQ(batch->sequence, expected_sequence++);
    EXPECT_EQ(batch->shard, shard);
    EXPECT_EQ(batch->size(), 0u);  // the reader never parses
    EXPECT_LE(batch->raw_lines.size(), options.batch_lines);
    out.max_buffer_bytes = std::max(out.max_buffer_bytes, batch->raw_bytes().size());
    out.raw_input_bytes += batch->raw_input_bytes;
    if (batch->end_of_shard) {
      EXPECT_TRUE(batch->raw_lines.empty());
      EXPECT_TRUE(batch->errors.empty());
      EXPECT_EQ(reader.next(), nullptr);
      EXPECT_EQ(reader.next(), nullptr);
      break;
    }
    std::string_view raw = batch->raw_bytes();
    for (const RawLine& line : batch->raw_lines) {
      EXPECT_LE(line.offset + line.length, raw.size());
      std::string_view text = raw.substr(line.offset, line.length);
      EXPECT_EQ(text.find('\n'), std::string_view::npos) << "a line holds a newline";
      out.lines.push_back({std::string(text), line.line_number, line.byte_offset, batch->sequence});
    }
    for (InputErrorRecord& error : batch->errors) {
      out.error_batches.push_back(batch->sequence);
      out.errors.push_back(std::move(error));
    }
    if (expected_sequence > 1'000'000) {
      ADD_FAILURE() << "the reader does not end";
      break;
    }
  }
  out.compressed_bytes_read = reader.compressed_bytes_read();
  return out;
}

// Splits like the reader should: on '\n', a last line without newline still counts.
struct ExpectedLine {
  std::string text;
  uint64_t offset;
};
std::vector<ExpectedLine> expected_lines(std::string_view data) {
  std::vector<ExpectedLine> lines;
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    if (end == std::string_view::npos) end = data.size();
    lines.push_back({std::string(data.substr(start, end - start)), start});
    start = end + 1;
  }
  return lines;
}

void expect_lines(const ReadAll& got, std::string_view data) {
  std::vector<ExpectedLine> want = expected_lines(data);
  ASSERT_EQ(got.lines.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got.lines[i].text, want[i].text) << "line " << i + 1;
    ASSERT_EQ(got.lines[i].line_number, i + 1);
    ASSERT_EQ(got.lines[i].byte_offset, want[i].offset) << "line " << i + 1;
  }
}

// JSONL-ish lines of very different lengths, some empty, a few long; ~600 KB in all so the
// reader's internal read steps (a few hundred KB) end inside lines.
std::string lines_fixture(size_t count, uint64_t seed, bool final_newline = true) {
  std::mt19937_64 rng(seed);
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    size_t kind = rng() % 10;
    size_t length = kind == 0 ? 0 : kind < 8 ? rng() % 200 : rng() % 5000;
    if (length == 0) {
      // Empty lines are lines too (the parser counts them as blank).
    } else {
      out += "{\"text\":\"";
      for (size_t k = 0; k < length; ++k) out.push_back(static_cast<char>('a' + rng() % 26));
      out += "\"}";
    }
    if (i + 1 < count || final_newline) out.push_back('\n');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

struct BatchParam {
  Compression compression;
  size_t batch_lines;
  size_t batch_bytes;
};

class ShardReaderBatching : public ::testing::TestWithParam<BatchParam> {};

TEST_P(ShardReaderBatching, LinesAreWholeNumberedAndPlaced) {
  const BatchParam& p = GetParam();
  static const std::string data = lines_fixture(1200, 42);
  TempDir dir;
  std::string path = dir.file("shard.jsonl");
  write_file(path, compress(data, p.compression));
  ReaderOptions options;
  options.batch_lines = p.batch_lines;
  options.batch_bytes = p.batch_bytes;
  ReadAll got = read_all(path, options);
  EXPECT_TRUE(got.errors.empty()) << got.errors.front().message;
  expect_lines(got, data);
  EXPECT_EQ(got.raw_input_bytes, data.size());
  EXPECT_EQ(got.compressed_bytes_read, compress(data, p.compression).size());
  if (p.batch_lines == 1) {
    // One line per batch: every line got its own batch.
    for (size_t i = 0; i < got.lines.size(); ++i) EXPECT_EQ(got.lines[i].batch, i);
  }
}

std::vector<BatchParam> batch_params() {
  std::vector<BatchParam> params;
  for (Compression c : {Compression::kNone, Compression::kGzip, Compression::kZstd}) {
    for (size_t lines : {1u, 2u, 7u, 1000u, 1u << 20}) {
      // batch_bytes below a line's length, around it, and far above the file.
      for (size_t bytes : {1u, 10u, 100u, 4096u, 1u << 20}) params.push_back({c, lines, bytes});
    }
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(Combinations, ShardReaderBatching, ::testing::ValuesIn(batch_params()),
                         [](const auto& info) {
                           return std::string(compression_name(info.param.compression)) + "_lines" +
                                  std::to_string(info.param.batch_lines) + "_bytes" +
                                  std::to_string(info.param.batch_bytes);
                         });

TEST(ShardReader, LastLineWithoutNewlineIsStillALine) {
  TempDir dir;
  for (Compression c : {Compression::kNone, Compression::kGzip, Compression::kZstd}) {
    SCOPED_TRACE(compression_name(c));
    std::string data = lines_fixture(500, 7) + "{\"text\":\"tail\"}";
    write_file(dir.file("s"), compress(data, c));
    ReadAll got = read_all(dir.file("s"), ReaderOptions{});
    EXPECT_TRUE(got.errors.empty());
    expect_lines(got, data);
    ASSERT_FALSE(got.lines.empty());
    EXPECT_EQ(got.lines.back().text, "{\"text\":\"tail\"}");
  }
}

TEST(ShardReader, SingleLineFiles) {
  TempDir dir;
  struct Case {
    std::string data;
    std::vector<std::string> lines;
  };
  const Case cases[] = {
      {"x", {"x"}}, {"x\n", {"x"}}, {"\n", {""}}, {"\n\n", {"", ""}}, {"a\n\nb", {"a", "", "b"}}};
  for (const Case& c : cases) {
    write_file(dir.file("s"), c.data);
    ReadAll got = read_all(dir.file("s"), ReaderOptions{});
    EXPECT_TRUE(got.errors.empty());
    ASSERT_EQ(got.lines.size(), c.lines.size()) << ::testing::PrintToString(c.data);
    for (size_t i = 0; i < c.lines.size(); ++i) {
      EXPECT_EQ(got.lines[i].text, c.lines[i]);
      EXPECT_EQ(got.lines[i].line_number, i + 1);
    }
  }
}

TEST(ShardReader, CrlfLinesKeepNumbersAndOffsets) {
  TempDir dir;
  std::string data = "{\"text\":\"a\"}\r\n{\"text\":\"bb\"}\r\n\r\n{\"text\":\"c\"}\r\n";
  for (size_t batch_lines : {1u, 2u, 100u}) {
    write_file(dir.file("crlf.jsonl"), data);
    ReaderOptions options;
    options.batch_lines = batch_lines;
    ReadAll got = read_all(dir.file("crlf.jsonl"), options);
    EXPECT_TRUE(got.errors.empty());
    ASSERT_EQ(got.lines.size(), 4u);
    const char* want[] = {"{\"text\":\"a\"}", "{\"text\":\"bb\"}", "", "{\"text\":\"c\"}"};
    const uint64_t offsets[] = {0, 14, 29, 31};
    for (size_t i = 0; i < 4; ++i) {
      std::string text = got.lines[i].text;
      // The reader splits on '\n'; a trailing '\r' is whitespace the parser ignores.
      if (!text.empty() && text.back() == '\r') text.pop_back();
      EXPECT_EQ(text, want[i]);
      EXPECT_EQ(got.lines[i].line_number, i + 1);
      EXPECT_EQ(got.lines[i].byte_offset, offsets[i]);
    }
  }
}

TEST(ShardReader, EmptyFileGivesOneEmptyFileError) {
  TempDir dir;
  std::string path = dir.file("empty.jsonl");
  write_file(path, "");
  ReadAll got = read_all(path, ReaderOptions{});
  EXPECT_TRUE(got.lines.empty());
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kEmptyFile);
  EXPECT_THAT(got.errors[0].message, HasSubstr(path));
  EXPECT_EQ(got.batches, 2u);
}

TEST(ShardReader, CompressedEmptyStreamIsAnEmptyFile) {
  TempDir dir;
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    std::string path = dir.file(std::string("empty.") + std::string(compression_name(c)));
    write_file(path, compress("", c));
    ReadAll got = read_all(path, ReaderOptions{});
    EXPECT_TRUE(got.lines.empty());
    ASSERT_EQ(got.errors.size(), 1u);
    EXPECT_EQ(got.errors[0].kind, InputError::kEmptyFile);
  }
}

TEST(ShardReader, NewlineOnlyFileIsNotEmpty) {
  TempDir dir;
  write_file(dir.file("nl"), "\n");
  ReadAll got = read_all(dir.file("nl"), ReaderOptions{});
  EXPECT_TRUE(got.errors.empty());
  EXPECT_EQ(got.lines.size(), 1u);
}

TEST(ShardReader, HugeLineIsSkippedWithoutHoldingIt) {
  TempDir dir;
  std::string path = dir.file("huge.jsonl");
  const size_t kHuge = 5u << 20;
  std::string data = "{\"text\":\"one\"}\n{\"text\":\"" + std::string(kHuge, 'x') +
                     "\"}\n{\"text\":\"three\"}\n{\"text\":\"four\"}";
  write_file(path, data);
  ReaderOptions options;
  options.max_line_bytes = 1u << 20;
  options.batch_bytes = 64u << 10;
  ReadAll got = read_all(path, options);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kLineTooLong);
  EXPECT_EQ(got.errors[0].line, 2u);
  EXPECT_EQ(got.errors[0].byte_offset, 15u);
  EXPECT_THAT(got.errors[0].message, HasSubstr(path + ":2"));
  EXPECT_LE(got.errors[0].excerpt.size(), 1024u);
  EXPECT_EQ(got.errors[0].excerpt.substr(0, 10), "{\"text\":\"x");
  ASSERT_EQ(got.lines.size(), 3u);
  EXPECT_EQ(got.lines[0].text, "{\"text\":\"one\"}");
  EXPECT_EQ(got.lines[0].line_number, 1u);
  EXPECT_EQ(got.lines[1].text, "{\"text\":\"three\"}");
  EXPECT_EQ(got.lines[1].line_number, 3u);
  EXPECT_EQ(got.lines[1].byte_offset, 15u + 9 + kHuge + 3);
  EXPECT_EQ(got.lines[2].text, "{\"text\":\"four\"}");
  EXPECT_EQ(got.lines[2].line_number, 4u);
  // The buffer never had to hold the 5 MB line.
  EXPECT_LT(got.max_buffer_bytes, kHuge / 2);
  EXPECT_EQ(got.raw_input_bytes, data.size());
}

TEST(ShardReader, HugeLastLineWithoutNewlineIsSkipped) {
  TempDir dir;
  std::string path = dir.file("huge_tail.jsonl.zst");
  std::string data = "{\"text\":\"one\"}\n" + std::string(3u << 20, 'y');
  write_file(path, compress(data, Compression::kZstd));
  ReaderOptions options;
  options.max_line_bytes = 1u << 20;
  options.batch_bytes = 64u << 10;
  ReadAll got = read_all(path, options);
  ASSERT_EQ(got.lines.size(), 1u);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kLineTooLong);
  EXPECT_EQ(got.errors[0].line, 2u);
}

// Whether a line is too long must not depend on where batches happen to end: a line over the
// limit is reported even when it arrives whole in one buffer.
TEST(ShardReader, LineTooLongDoesNotDependOnBatchSize) {
  TempDir dir;
  std::string path = dir.file("long.jsonl");
  std::string ok_line = "{\"text\":\"" + std::string(1000 - 11, 'o') + "\"}";  // exactly 1000
  std::string long_line = "{\"text\":\"" + std::string(1500, 'l') + "\"}";
  std::string data = ok_line + "\n" + long_line + "\n" + ok_line + "\n";
  ASSERT_EQ(ok_line.size(), 1000u);
  write_file(path, data);
  for (size_t batch_bytes : {1u, 512u, 1u << 20}) {
    for (size_t batch_lines : {1u, 1024u}) {
      SCOPED_TRACE("batch_bytes " + std::to_string(batch_bytes) + " batch_lines " +
                   std::to_string(batch_lines));
      ReaderOptions options;
      options.max_line_bytes = 1000;
      options.batch_bytes = batch_bytes;
      options.batch_lines = batch_lines;
      ReadAll got = read_all(path, options);
      ASSERT_EQ(got.errors.size(), 1u);
      EXPECT_EQ(got.errors[0].kind, InputError::kLineTooLong);
      EXPECT_EQ(got.errors[0].line, 2u);
      EXPECT_EQ(got.errors[0].byte_offset, 1001u);
      ASSERT_EQ(got.lines.size(), 2u);
      EXPECT_EQ(got.lines[0].line_number, 1u);
      EXPECT_EQ(got.lines[1].line_number, 3u);
      EXPECT_EQ(got.lines[1].byte_offset, 1001u + long_line.size() + 1);
    }
  }
}

TEST(ShardReader, TruncatedZstdGivesLinesBeforeTheCutThenAnError) {
  TempDir dir;
  std::string path = dir.file("cut.jsonl.zst");
  std::string data = lines_fixture(4000, 9);
  std::string compressed = compress(data, Compression::kZstd);
  write_file(path, std::string_view(compressed).substr(0, compressed.size() * 2 / 3));
  ReaderOptions options;
  options.batch_lines = 100;
  ReadAll got = read_all(path, options);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kTruncatedCompressed);
  EXPECT_THAT(got.errors[0].message, HasSubstr(path));
  // A good share of the lines came out, exactly as written, and nothing after the error.
  std::vector<ExpectedLine> want = expected_lines(data);
  ASSERT_GT(got.lines.size(), want.size() / 4);
  ASSERT_LT(got.lines.size(), want.size());
  for (size_t i = 0; i < got.lines.size(); ++i) {
    ASSERT_EQ(got.lines[i].text, want[i].text);
    ASSERT_EQ(got.lines[i].line_number, i + 1);
    ASSERT_EQ(got.lines[i].byte_offset, want[i].offset);
  }
  EXPECT_GE(got.error_batches[0], got.lines.back().batch);
}

TEST(ShardReader, TruncatedGzipGivesAnError) {
  TempDir dir;
  std::string path = dir.file("cut.jsonl.gz");
  std::string data = lines_fixture(2000, 10);
  std::string compressed = compress(data, Compression::kGzip);
  write_file(path, std::string_view(compressed).substr(0, compressed.size() - 5));
  ReadAll got = read_all(path, ReaderOptions{});
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kTruncatedCompressed);
  std::vector<ExpectedLine> want = expected_lines(data);
  ASSERT_LE(got.lines.size(), want.size());
  for (size_t i = 0; i < got.lines.size(); ++i) ASSERT_EQ(got.lines[i].text, want[i].text);
}

// Every line that decompressed whole before the cut is a line (what `zcat` and `zstd -dc`
// print before their error), whatever the batch sizes: the last read's bytes used to be lost.
TEST(ShardReader, TruncatedStreamGivesEveryLineThatDecompressedWhole) {
  TempDir dir;
  std::string data = lines_fixture(20000, 11);
  std::vector<ExpectedLine> want = expected_lines(data);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    std::string compressed = compress(data, c);
    for (int percent : {25, 50, 75, 90}) {
      std::string path = dir.file("cut.jsonl");
      write_file(path, std::string_view(compressed).substr(0, compressed.size() * percent / 100));
      std::string decoded = testing::reference_decode(
          std::string_view(compressed).substr(0, compressed.size() * percent / 100), c);
      size_t whole = static_cast<size_t>(std::count(decoded.begin(), decoded.end(), '\n'));
      for (size_t batch_lines : {7u, 1024u}) {
        SCOPED_TRACE(std::string(compression_name(c)) + " cut at " + std::to_string(percent) +
                     "% batches of " + std::to_string(batch_lines));
        ReaderOptions options;
        options.batch_lines = batch_lines;
        ReadAll got = read_all(path, options);
        ASSERT_EQ(got.errors.size(), 1u);
        EXPECT_EQ(got.errors[0].kind, InputError::kTruncatedCompressed);
        EXPECT_EQ(got.errors[0].line, whole + 1);
        ASSERT_EQ(got.lines.size(), whole);
        for (size_t i = 0; i < whole; ++i) ASSERT_EQ(got.lines[i].text, want[i].text);
      }
    }
  }
}

TEST(ShardReader, NonexistentPathGivesUnreadableThenEnd) {
  TempDir dir;
  std::string path = dir.file("missing.jsonl");
  ReadAll got = read_all(path, ReaderOptions{}, 12);
  EXPECT_TRUE(got.lines.empty());
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kUnreadableFile);
  EXPECT_THAT(got.errors[0].message, HasSubstr(path));
  EXPECT_EQ(got.batches, 2u);
  EXPECT_EQ(got.error_batches[0], 0u);
}

TEST(ShardReader, DirectoryPathIsUnreadable) {
  TempDir dir;
  ReadAll got = read_all(dir.path(), ReaderOptions{});
  EXPECT_TRUE(got.lines.empty());
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].kind, InputError::kUnreadableFile);
}

}  // namespace
}  // namespace winnow
