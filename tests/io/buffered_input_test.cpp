#include "io/buffered_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {
namespace {

using Line = BufferedInput::Line;

std::unique_ptr<ByteSource> open(const std::string& path, bool resume = false) {
  StreamError error;
  auto source = ByteSource::open(path, &error, {.resume_after_damaged_gzip_member = resume});
  EXPECT_NE(source, nullptr) << error.message;
  return source;
}

// `bytes` in a file of a fresh folder, opened as a ByteSource.
class BufferedInputTest : public ::testing::Test {
 protected:
  ByteSource& source_of(std::string_view bytes, bool resume = false) {
    std::string path = dir_.file("input" + std::to_string(sources_.size()));
    write_file(path, bytes);
    sources_.push_back(open(path, resume));
    return *sources_.back();
  }
  TempDir dir_;
  std::vector<std::unique_ptr<ByteSource>> sources_;
};

// A real page (python3-doc, which scripts/setup installs).
std::string page() { return read_file("/usr/share/doc/python3/html/tutorial/appetite.html"); }

void expect_line(BufferedInput& input, Line status, std::string_view text, size_t max = 100) {
  std::string line;
  EXPECT_EQ(input.read_line(line, max), status);
  EXPECT_EQ(line, text);
}

std::vector<std::string> all_lines(BufferedInput& input, size_t max) {
  std::vector<std::string> lines;
  std::string line;
  while (true) {
    Line status = input.read_line(line, max);
    if (status == Line::kEof) {
      if (!line.empty()) lines.push_back(line);
      return lines;
    }
    EXPECT_EQ(status, Line::kOk);
    lines.push_back(line);
  }
}

TEST_F(BufferedInputTest, ReadsLinesWhateverTheBufferSize) {
  std::string text = page();
  std::string gz = compress(text, Compression::kGzip);
  std::vector<std::string> expected = split_lines(text);
  for (size_t buffer : {size_t{1}, size_t{7}, size_t{4096}, BufferedInput::kDefaultBufferBytes}) {
    SCOPED_TRACE(buffer);
    BufferedInput input(source_of(gz), buffer);
    EXPECT_EQ(all_lines(input, 1 << 16), expected);
    EXPECT_EQ(input.offset(), text.size());
    EXPECT_EQ(input.total(), text.size());
  }
}

TEST_F(BufferedInputTest, KeepsCarriageReturnsAndTheLastLineWithoutNewline) {
  BufferedInput input(source_of("WARC/1.0\r\nWARC-Type: response\r\n\r\nlast"), 5);
  expect_line(input, Line::kOk, "WARC/1.0\r");
  EXPECT_EQ(input.offset(), 10u);
  expect_line(input, Line::kOk, "WARC-Type: response\r");
  expect_line(input, Line::kOk, "\r");
  expect_line(input, Line::kEof, "last");
  expect_line(input, Line::kEof, "");
  EXPECT_FALSE(input.broken());
}

TEST_F(BufferedInputTest, OverlongLineIsCutAndConsumedToItsEnd) {
  std::string long_line(10000, 'x');
  long_line[0] = 'a';
  BufferedInput input(source_of(long_line + "\nnext\n"), 1000);
  expect_line(input, Line::kTooLong, long_line.substr(0, 64), 64);
  EXPECT_EQ(input.offset(), long_line.size() + 1);
  expect_line(input, Line::kOk, "next", 64);
  // A line of exactly `max` bytes is not too long.
  BufferedInput exact(source_of(std::string(64, 'y') + "\n"), 10);
  expect_line(exact, Line::kOk, std::string(64, 'y'), 64);
}

TEST_F(BufferedInputTest, CountedReadsSkipsAndPeeks) {
  BufferedInput input(source_of("0123456789\r\n\r\nWARC"), 3);
  std::string out = "kept:";
  EXPECT_EQ(input.read(out, 4), 4u);
  EXPECT_EQ(out, "kept:0123");
  EXPECT_EQ(input.skip(6), 6u);
  EXPECT_EQ(input.offset(), 10u);
  EXPECT_EQ(input.peek(), '\r');
  EXPECT_EQ(input.offset(), 10u);  // peek does not consume
  input.consume(1);
  EXPECT_EQ(input.peek(), '\n');
  input.consume(1);
  EXPECT_EQ(input.offset(), 12u);
  // Short at the end: what there was.
  out.clear();
  EXPECT_EQ(input.read(out, 100), 6u);
  EXPECT_EQ(out, "\r\nWARC");
  EXPECT_EQ(input.peek(), -1);
  EXPECT_EQ(input.skip(5), 0u);
  EXPECT_EQ(input.read(out, 5), 0u);
}

TEST_F(BufferedInputTest, EmptyFile) {
  BufferedInput input(source_of(""));
  expect_line(input, Line::kEof, "");
  EXPECT_EQ(input.total(), 0u);
}

// One gzip member per record, the middle one damaged: the input stops there as if at the end,
// says why, and after resume() reads on from the next member.
TEST_F(BufferedInputTest, DamagedGzipMemberBreaksUntilResumed) {
  std::string first = "WARC/1.0\r\nfirst record\r\n";
  std::string second = page();
  std::string third = "WARC/1.0\r\nthird record\r\n";
  std::string damaged = compress(second, Compression::kGzip);
  for (size_t i = damaged.size() / 2; i < damaged.size() / 2 + 32; ++i) damaged[i] ^= 0x55;
  ByteSource& source =
      source_of(compress(first, Compression::kGzip) + damaged + compress(third, Compression::kGzip),
                /*resume=*/true);
  BufferedInput input(source, 4096);
  expect_line(input, Line::kOk, "WARC/1.0\r");
  expect_line(input, Line::kOk, "first record\r");
  std::string rest;
  input.read(rest, 1 << 20);  // what inflated of the damaged member
  EXPECT_TRUE(input.broken());
  EXPECT_EQ(input.break_error().kind, InputError::kCorruptCompressed);
  EXPECT_NE(input.break_error().message.find(source.path()), std::string::npos);
  expect_line(input, Line::kEof, "");  // still stopped
  input.resume();
  EXPECT_FALSE(input.broken());
  std::vector<std::string> after = all_lines(input, 100);
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after.back(), "third record\r");
  EXPECT_FALSE(input.broken());
  EXPECT_FALSE(source.failed());
}

TEST_F(BufferedInputTest, LooksAheadWithoutConsuming) {
  std::string text = "abc\r\n\r\nWARC/1.0\r\nrest";
  for (size_t buffer : {1u, 3u, 7u, 4096u}) {
    SCOPED_TRACE("buffer " + std::to_string(buffer));
    BufferedInput input(source_of(compress(text, Compression::kGzip)), buffer);
    std::string got;
    ASSERT_EQ(input.read(got, 7), 7u);
    EXPECT_EQ(input.looking_at("WARC/1."), BufferedInput::Ahead::kYes);
    EXPECT_EQ(input.looking_at("WARC/2."), BufferedInput::Ahead::kNo);
    EXPECT_EQ(input.looking_at("WARC/1.0\r\nrest and more"), BufferedInput::Ahead::kEnd);
    EXPECT_EQ(input.offset(), 7u);
    expect_line(input, Line::kOk, "WARC/1.0\r");
    expect_line(input, Line::kEof, "rest");
    EXPECT_EQ(input.looking_at("x"), BufferedInput::Ahead::kEnd);
  }
}

TEST_F(BufferedInputTest, UnreadGivesBytesBackWhereverTheyWere) {
  std::string text = page();
  for (size_t buffer : {5u, 100u, 1u << 20}) {
    SCOPED_TRACE("buffer " + std::to_string(buffer));
    BufferedInput input(source_of(text), buffer);
    std::string got;
    input.read(got, 3000);
    input.unread(std::string_view(got).substr(1000));
    EXPECT_EQ(input.offset(), 1000u);
    std::string again;
    input.read(again, text.size());
    EXPECT_EQ(again, text.substr(1000));
    EXPECT_EQ(input.offset(), text.size());
  }
}

// One gzip member per record: bytes are vouched for once their member has ended well. A
// member whose CRC-32 fails shows as a break when the reader asks, before it moves on.
TEST_F(BufferedInputTest, VerifiedThroughWaitsForTheMembersEnd) {
  std::string first = "WARC/1.0\r\nfirst\r\n\r\n", second = page(), third = "WARC/1.0\r\nthird\r\n";
  std::string bad = compress(second, Compression::kGzip);
  for (size_t i = bad.size() - 8; i < bad.size() - 4; ++i) bad[i] ^= 0x55;  // the CRC-32
  ByteSource& source = source_of(
      compress(first, Compression::kGzip) + bad + compress(third, Compression::kGzip), true);
  BufferedInput input(source, 64);
  std::string got;
  ASSERT_EQ(input.read(got, first.size()), first.size());
  EXPECT_TRUE(input.verified_through(input.offset()));
  ASSERT_EQ(input.read(got, second.size()), second.size());  // every byte, before the check
  EXPECT_FALSE(input.verified_through(input.offset()));
  EXPECT_TRUE(input.broken());
  EXPECT_EQ(input.break_error().kind, InputError::kCorruptCompressed);
  input.resume();
  expect_line(input, Line::kOk, "WARC/1.0\r");
  // Plain input has no check.
  BufferedInput plain(source_of(first));
  plain.read(got, 5);
  EXPECT_TRUE(plain.verified_through(plain.offset()));
}

}  // namespace
}  // namespace winnow::testing
