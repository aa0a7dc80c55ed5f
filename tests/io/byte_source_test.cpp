#include "io/byte_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zstd.h>

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

// Deterministic bytes that mix incompressible runs with repetitive text, so compressors emit
// both raw/stored and real compressed blocks.
std::string make_data(size_t size, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out;
  out.reserve(size);
  static constexpr std::string_view kPhrase = "{\"text\":\"the quick brown fox\",\"id\":";
  while (out.size() < size) {
    size_t run = 1 + rng() % 700;
    if (rng() % 2) {
      for (size_t i = 0; i < run; ++i) out.push_back(static_cast<char>(rng() & 0xFF));
    } else {
      for (size_t i = 0; i < run; ++i) out.push_back(kPhrase[i % kPhrase.size()]);
    }
  }
  out.resize(size);
  return out;
}

std::string zstd_with_checksum(std::string_view data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress2(cctx, out.data(), out.size(), data.data(), data.size());
  ZSTD_freeCCtx(cctx);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

struct ReadResult {
  std::string bytes;
  bool failed = false;
  StreamError error;
  Compression compression = Compression::kNone;
  uint64_t compressed_bytes_read = 0;
};

// Reads the whole file in reads of `capacity` bytes. Fails the test when open() fails.
ReadResult read_all(const std::string& path, size_t capacity) {
  ReadResult result;
  StreamError error;
  auto source = ByteSource::open(path, &error);
  EXPECT_NE(source, nullptr) << error.message;
  if (!source) return result;
  result.compression = source->compression();
  std::vector<char> buffer(capacity);
  size_t reads = 0;
  while (size_t n = source->read(buffer.data(), capacity)) {
    EXPECT_LE(n, capacity);
    result.bytes.append(buffer.data(), n);
    // A stream can never produce more reads than bytes (each read returns at least one).
    if (++reads > (64u << 20)) break;
  }
  // The end is sticky: reading again after the end (or a failure) returns nothing.
  EXPECT_EQ(source->read(buffer.data(), capacity), 0u);
  result.failed = source->failed();
  result.error = source->error();
  result.compressed_bytes_read = source->compressed_bytes_read();
  return result;
}

const Compression kAllCompressions[] = {Compression::kNone, Compression::kGzip, Compression::kZstd};

// ---------------------------------------------------------------------------------------------
// Detection

TEST(ByteSource, DetectsCompressionFromMagicBytesNotFromTheName) {
  TempDir dir;
  const std::string text = "{\"text\":\"hello\"}\n{\"text\":\"world\"}\n";
  struct Case {
    std::string name;
    Compression written;
  };
  // Every name lies about its content.
  const Case cases[] = {{"zstd_named.jsonl", Compression::kZstd},
                        {"gzip_named.zst", Compression::kGzip},
                        {"plain_named.gz", Compression::kNone},
                        {"zstd_named.jsonl.gz", Compression::kZstd},
                        {"no_extension", Compression::kGzip}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write_file(dir.file(c.name), compress(text, c.written));
    ReadResult r = read_all(dir.file(c.name), 4096);
    EXPECT_EQ(r.compression, c.written);
    EXPECT_FALSE(r.failed) << r.error.message;
    EXPECT_EQ(r.bytes, text);
  }
}

TEST(ByteSource, ShortPlainFilesAreNotMistakenForCompressed) {
  TempDir dir;
  // One byte of the gzip magic, three of the zstd magic: too short to be either.
  for (std::string bytes :
       {std::string("\x1f"), std::string("\x28\xb5\x2f", 3), std::string("x")}) {
    write_file(dir.file("f"), bytes);
    ReadResult r = read_all(dir.file("f"), 16);
    EXPECT_EQ(r.compression, Compression::kNone);
    EXPECT_FALSE(r.failed);
    EXPECT_EQ(r.bytes, bytes);
  }
}

TEST(ByteSource, EmptyFileReadsAsEmptyPlainStream) {
  TempDir dir;
  write_file(dir.file("empty.jsonl"), "");
  ReadResult r = read_all(dir.file("empty.jsonl"), 16);
  EXPECT_EQ(r.compression, Compression::kNone);
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.bytes, "");
}

// ---------------------------------------------------------------------------------------------
// Round trips

struct RoundTripParam {
  Compression compression;
  size_t size;
  size_t capacity;
};

std::string describe(const ::testing::TestParamInfo<RoundTripParam>& info) {
  return std::string(compression_name(info.param.compression)) + "_size" +
         std::to_string(info.param.size) + "_cap" + std::to_string(info.param.capacity);
}

class ByteSourceRoundTrip : public ::testing::TestWithParam<RoundTripParam> {};

TEST_P(ByteSourceRoundTrip, ReadsBackExactBytes) {
  const RoundTripParam& p = GetParam();
  TempDir dir;
  std::string data = make_data(p.size, p.size * 31 + static_cast<int>(p.compression));
  std::string compressed = compress(data, p.compression);
  write_file(dir.file("shard.jsonl"), compressed);
  ReadResult r = read_all(dir.file("shard.jsonl"), p.capacity);
  EXPECT_FALSE(r.failed) << r.error.message;
  EXPECT_EQ(r.compression, p.compression);
  ASSERT_EQ(r.bytes.size(), data.size());
  EXPECT_TRUE(r.bytes == data) << "content differs";
  EXPECT_EQ(r.compressed_bytes_read, compressed.size());
}

std::vector<RoundTripParam> round_trip_params() {
  std::vector<RoundTripParam> params;
  const size_t sizes[] = {1, 7, 65537, 3u << 20};
  const size_t capacities[] = {1, 7, 4093, 1u << 22};
  for (Compression c : kAllCompressions) {
    for (size_t size : sizes) {
      for (size_t capacity : capacities) {
        // Byte-at-a-time reads of 3 MB only slow the suite without covering anything new.
        if (capacity < 4093 && size > (1u << 20)) continue;
        params.push_back({c, size, capacity});
      }
    }
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(AllCompressions, ByteSourceRoundTrip,
                         ::testing::ValuesIn(round_trip_params()), describe);

// zstd frames written with a checksum have a trailer after the last block; those written
// without one end right after it. Both must read to the end with tiny output buffers.
TEST(ByteSource, ZstdWithChecksumRoundTripsWithTinyReads) {
  TempDir dir;
  for (size_t size : {1u, 7u, 65537u, 300000u}) {
    SCOPED_TRACE(size);
    std::string data = make_data(size, size);
    write_file(dir.file("c.zst"), zstd_with_checksum(data));
    for (size_t capacity : {1u, 7u, 4093u}) {
      ReadResult r = read_all(dir.file("c.zst"), capacity);
      EXPECT_FALSE(r.failed) << "capacity " << capacity << ": " << r.error.message;
      EXPECT_TRUE(r.bytes == data) << "capacity " << capacity;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Concatenated streams

TEST(ByteSource, ConcatenatedGzipMembersReadAsOneStream) {
  TempDir dir;
  std::string a = make_data(70000, 1), b = make_data(3, 2), c = make_data(200001, 3);
  // An empty member in the middle must not end the stream either.
  std::string file = compress(a, Compression::kGzip) + compress("", Compression::kGzip) +
                     compress(b, Compression::kGzip) + compress(c, Compression::kGzip, 9);
  write_file(dir.file("multi.gz"), file);
  for (size_t capacity : {7u, 65536u, 1u << 22}) {
    ReadResult r = read_all(dir.file("multi.gz"), capacity);
    EXPECT_FALSE(r.failed) << r.error.message;
    EXPECT_TRUE(r.bytes == a + b + c) << "capacity " << capacity << " got " << r.bytes.size();
    EXPECT_EQ(r.compressed_bytes_read, file.size());
  }
}

TEST(ByteSource, ConcatenatedZstdFramesReadAsOneStream) {
  TempDir dir;
  std::string a = make_data(70000, 4), b = make_data(3, 5), c = make_data(200001, 6);
  std::string file = compress(a, Compression::kZstd) + compress("", Compression::kZstd) +
                     zstd_with_checksum(b) + compress(c, Compression::kZstd, 19);
  write_file(dir.file("multi.zst"), file);
  for (size_t capacity : {7u, 65536u, 1u << 22}) {
    ReadResult r = read_all(dir.file("multi.zst"), capacity);
    EXPECT_FALSE(r.failed) << r.error.message;
    EXPECT_TRUE(r.bytes == a + b + c) << "capacity " << capacity << " got " << r.bytes.size();
    EXPECT_EQ(r.compressed_bytes_read, file.size());
  }
}

TEST(ByteSource, ManySmallGzipMembersAcrossInputBufferBoundaries) {
  // Many members (like Common Crawl's one-per-record files) so that members straddle the
  // reader's internal input buffer.
  TempDir dir;
  std::string expected, file;
  for (int i = 0; i < 3000; ++i) {
    std::string record = make_data(500 + i % 97, 100 + i);
    expected += record;
    file += compress(record, Compression::kGzip, 1);
  }
  write_file(dir.file("cc.gz"), file);
  ReadResult r = read_all(dir.file("cc.gz"), 65536);
  EXPECT_FALSE(r.failed) << r.error.message;
  EXPECT_TRUE(r.bytes == expected);
}

// ---------------------------------------------------------------------------------------------
// Truncation and corruption

class ByteSourceTruncated : public ::testing::TestWithParam<Compression> {};

TEST_P(ByteSourceTruncated, CutStreamFailsAsTruncatedNamingTheFile) {
  Compression c = GetParam();
  TempDir dir;
  std::string data = make_data(500000, 77);
  std::string compressed = compress(data, c);
  ASSERT_GT(compressed.size(), 100u);
  std::string path = dir.file("cut.jsonl");
  const size_t cuts[] = {c == Compression::kGzip ? 2u : 4u,  // magic bytes only
                         10, compressed.size() / 3, compressed.size() / 2, compressed.size() - 1};
  for (size_t cut : cuts) {
    for (size_t capacity : {7u, 1u << 20}) {
      SCOPED_TRACE("cut at " + std::to_string(cut) + " capacity " + std::to_string(capacity));
      write_file(path, std::string_view(compressed).substr(0, cut));
      ReadResult r = read_all(path, capacity);
      ASSERT_TRUE(r.failed) << "read " << r.bytes.size() << " bytes without error";
      EXPECT_EQ(r.error.kind, InputError::kTruncatedCompressed) << r.error.message;
      EXPECT_THAT(r.error.message, HasSubstr(path));
      // What came out before the cut is a prefix of the real data.
      EXPECT_LE(r.bytes.size(), data.size());
      EXPECT_TRUE(data.compare(0, r.bytes.size(), r.bytes) == 0);
    }
  }
}

TEST_P(ByteSourceTruncated, CutInTheSecondMemberOrFrameKeepsTheFirst) {
  Compression c = GetParam();
  TempDir dir;
  std::string first = make_data(1000, 8), second = make_data(100000, 9);
  std::string second_compressed = compress(second, c);
  std::string file = compress(first, c) + second_compressed.substr(0, second_compressed.size() / 2);
  write_file(dir.file("x"), file);
  ReadResult r = read_all(dir.file("x"), 4096);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.error.kind, InputError::kTruncatedCompressed);
  ASSERT_GE(r.bytes.size(), first.size());
  EXPECT_EQ(r.bytes.substr(0, first.size()), first);
}

// A truncated file hands out every byte the decoder could make before the cut, whatever the
// read size (they used to be lost with the last read: whole records before the cut with them).
TEST_P(ByteSourceTruncated, CutStreamHandsOutEverythingDecodedBeforeTheCut) {
  Compression c = GetParam();
  TempDir dir;
  std::string data = make_data(3000000, 78);
  std::string compressed = compress(data, c);
  std::string path = dir.file("cut");
  for (size_t percent : {25, 50, 75, 90}) {
    std::string_view cut = std::string_view(compressed).substr(0, compressed.size() * percent / 100);
    std::string expected = testing::reference_decode(cut, c);
    ASSERT_GT(expected.size(), 0u);
    write_file(path, cut);
    for (size_t capacity : {7u, 4096u, 256u << 10, 1u << 20, 8u << 20}) {
      SCOPED_TRACE("cut at " + std::to_string(percent) + "% capacity " + std::to_string(capacity));
      ReadResult r = read_all(path, capacity);
      ASSERT_TRUE(r.failed);
      EXPECT_EQ(r.error.kind, InputError::kTruncatedCompressed);
      EXPECT_EQ(r.bytes.size(), expected.size());
      EXPECT_TRUE(r.bytes == expected);
    }
  }
}

// verified_bytes(): how far the gzip members have ended with a good CRC-32 and length (or were
// reported damaged); bytes handed out before their member's end are not yet vouched for.
TEST(ByteSource, VerifiedBytesFollowTheEndsOfGzipMembers) {
  TempDir dir;
  std::string a = make_data(5000, 21), b = make_data(200000, 22), c = make_data(7000, 23);
  std::string bad_b = compress(b, Compression::kGzip);
  for (size_t i = bad_b.size() - 8; i < bad_b.size(); ++i) bad_b[i] ^= 0x55;  // CRC and length
  std::string path = dir.file("m.gz");
  write_file(path, compress(a, Compression::kGzip) + bad_b + compress(c, Compression::kGzip));
  for (size_t capacity : {7u, 4096u, 1u << 20}) {
    SCOPED_TRACE("capacity " + std::to_string(capacity));
    StreamError error;
    auto source = ByteSource::open(path, &error, {.resume_after_damaged_gzip_member = true});
    ASSERT_NE(source, nullptr);
    std::vector<char> buffer(capacity);
    std::string before;
    while (size_t n = source->read(buffer.data(), capacity)) {
      before.append(buffer.data(), n);
      EXPECT_LE(source->verified_bytes(), before.size());
      // Inside b, only a is vouched for.
      if (before.size() > a.size() && before.size() <= a.size() + b.size()) {
        EXPECT_EQ(source->verified_bytes(), a.size());
      }
    }
    // b inflated whole (its bytes are right) but its trailer does not match: a break.
    EXPECT_EQ(before, a + b);
    EXPECT_EQ(source->verified_bytes(), a.size());
    StreamError damage;
    ASSERT_TRUE(source->take_break(&damage));
    EXPECT_EQ(damage.kind, InputError::kCorruptCompressed);
    EXPECT_THAT(damage.message, HasSubstr("incorrect"));
    std::string after;
    while (size_t n = source->read(buffer.data(), capacity)) after.append(buffer.data(), n);
    EXPECT_EQ(after, c);
    EXPECT_EQ(source->verified_bytes(), a.size() + b.size() + c.size());
  }
  // Other streams have no per-member check: every byte counts as verified.
  write_file(path, compress(a, Compression::kZstd));
  StreamError error;
  auto zstd = ByteSource::open(path, &error);
  EXPECT_EQ(zstd->verified_bytes(), UINT64_MAX);
}

TEST(ByteSource, ResumingAfterADamagedGzipMemberReportsItAndReadsTheNextMembers) {
  // WARC files hold one gzip member per record: a damaged member costs its record only.
  TempDir dir;
  std::string first = make_data(5000, 11), second = make_data(300000, 12),
              third = make_data(7000, 13);
  std::string damaged = compress(second, Compression::kGzip);
  for (size_t i = damaged.size() / 3; i < damaged.size() / 3 + 64; ++i) damaged[i] ^= 0x5A;
  std::string file = compress(first, Compression::kGzip) + damaged +
                     compress(third, Compression::kGzip);
  std::string path = dir.file("records.warc.gz");
  write_file(path, file);

  // Without the option the stream fails at the damage.
  ReadResult plain = read_all(path, 4096);
  EXPECT_TRUE(plain.failed);
  EXPECT_EQ(plain.error.kind, InputError::kCorruptCompressed);

  for (size_t capacity : {7u, 4096u, 1u << 20}) {
    SCOPED_TRACE("capacity " + std::to_string(capacity));
    StreamError error;
    auto source = ByteSource::open(path, &error, {.resume_after_damaged_gzip_member = true});
    ASSERT_NE(source, nullptr) << error.message;
    std::string before, after;
    std::vector<char> buffer(capacity);
    while (size_t n = source->read(buffer.data(), capacity)) before.append(buffer.data(), n);
    StreamError damage;
    ASSERT_TRUE(source->take_break(&damage));
    EXPECT_FALSE(source->take_break(&damage));  // reported once
    EXPECT_EQ(damage.kind, InputError::kCorruptCompressed);
    EXPECT_THAT(damage.message, HasSubstr(path));
    while (size_t n = source->read(buffer.data(), capacity)) after.append(buffer.data(), n);
    EXPECT_FALSE(source->failed());
    EXPECT_FALSE(source->take_break(&damage));  // the real end
    // The first member whole, then whatever inflated before zlib saw the damage (deflate finds
    // corruption late, so those bytes need not be the real ones); the third member whole.
    ASSERT_GE(before.size(), first.size());
    EXPECT_EQ(before.substr(0, first.size()), first);
    EXPECT_LE(before.size(), first.size() + second.size());
    EXPECT_TRUE(after == third) << "got " << after.size() << " bytes after the damage";
  }
}

INSTANTIATE_TEST_SUITE_P(Compressed, ByteSourceTruncated,
                         ::testing::Values(Compression::kGzip, Compression::kZstd),
                         [](const auto& info) {
                           return std::string(compression_name(info.param));
                         });

class ByteSourceCorrupt : public ::testing::TestWithParam<Compression> {};

TEST_P(ByteSourceCorrupt, FlippedBytesFailWithAnErrorNamingTheFile) {
  Compression c = GetParam();
  TempDir dir;
  std::string data = make_data(400000, 1234);
  // Checksummed zstd frames: without a checksum, flips inside raw blocks pass undetected.
  std::string compressed = c == Compression::kZstd ? zstd_with_checksum(data) : compress(data, c);
  std::string path = dir.file("bad.jsonl");
  std::mt19937_64 rng(99);
  // Leave the headers alone: gzip's mtime/OS bytes are not covered by any check.
  const size_t lo = 32, hi = compressed.size() - 32;
  for (int trial = 0; trial < 40; ++trial) {
    std::string corrupted = compressed;
    size_t at = lo + rng() % (hi - lo);
    size_t span = 1 + trial % 8;
    for (size_t k = 0; k < span && at + k < hi; ++k)
      corrupted[at + k] ^= static_cast<char>(0x5A + k);
    write_file(path, corrupted);
    SCOPED_TRACE("flip at " + std::to_string(at) + " span " + std::to_string(span));
    ReadResult r = read_all(path, trial % 2 ? 4093 : 1 << 20);
    ASSERT_TRUE(r.failed) << "corruption not detected";
    EXPECT_TRUE(r.error.kind == InputError::kCorruptCompressed ||
                r.error.kind == InputError::kTruncatedCompressed)
        << input_error_name(r.error.kind) << ": " << r.error.message;
    EXPECT_THAT(r.error.message, HasSubstr(path));
  }
}

TEST_P(ByteSourceCorrupt, GarbageAfterTheMagicBytesFails) {
  Compression c = GetParam();
  TempDir dir;
  std::string magic =
      c == Compression::kGzip ? std::string("\x1f\x8b") : std::string("\x28\xb5\x2f\xfd");
  std::string path = dir.file("garbage");
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::string bytes = magic;
    for (int i = 0; i < 200 + trial * 37; ++i) bytes.push_back(static_cast<char>(rng()));
    write_file(path, bytes);
    ReadResult r = read_all(path, 1024);
    EXPECT_EQ(r.compression, c);
    ASSERT_TRUE(r.failed);
    EXPECT_TRUE(r.error.kind == InputError::kCorruptCompressed ||
                r.error.kind == InputError::kTruncatedCompressed);
    EXPECT_THAT(r.error.message, HasSubstr(path));
  }
}

INSTANTIATE_TEST_SUITE_P(Compressed, ByteSourceCorrupt,
                         ::testing::Values(Compression::kGzip, Compression::kZstd),
                         [](const auto& info) {
                           return std::string(compression_name(info.param));
                         });

// ---------------------------------------------------------------------------------------------
// Unreadable paths

TEST(ByteSource, MissingFileIsUnreadable) {
  TempDir dir;
  std::string path = dir.file("does-not-exist.jsonl.zst");
  StreamError error;
  error.kind = InputError::kMalformedJson;  // must be overwritten
  auto source = ByteSource::open(path, &error);
  EXPECT_EQ(source, nullptr);
  EXPECT_EQ(error.kind, InputError::kUnreadableFile);
  EXPECT_THAT(error.message, HasSubstr(path));
}

TEST(ByteSource, DirectoryIsUnreadable) {
  TempDir dir;
  std::string path = dir.file("a_dir.jsonl");
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  StreamError error;
  error.kind = InputError::kMalformedJson;
  auto source = ByteSource::open(path, &error);
  if (source == nullptr) {
    EXPECT_EQ(error.kind, InputError::kUnreadableFile);
    EXPECT_THAT(error.message, HasSubstr(path));
  } else {
    char buffer[64];
    EXPECT_EQ(source->read(buffer, sizeof(buffer)), 0u);
    ASSERT_TRUE(source->failed());
    EXPECT_EQ(source->error().kind, InputError::kUnreadableFile);
    EXPECT_THAT(source->error().message, HasSubstr(path));
  }
}

// bzip2 (Wikipedia dumps): files written by Python's bz2 module (an independent encoder), two
// streams concatenated as multistream dumps are, read back whole at any read size; cut short,
// the bytes of whole blocks before the cut come out and the error names the file.
TEST(ByteSource, Bzip2StreamsFromPythonReadAsOneAndCutFailsAsTruncated) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 60000; ++i) text += "line " + std::to_string(i * 7919 % 100003) + " Zürich\n";
  write_file(dir.file("plain.txt"), text);
  ASSERT_EQ(testing::run_command("python3 -c \"import bz2,sys; d=open(sys.argv[1],'rb').read(); h=len(d)//3; "
                        "open(sys.argv[2],'wb').write(bz2.compress(d[:h],1)+bz2.compress(d[h:],1))\" " +
                        dir.file("plain.txt") + " " + dir.file("multi.bz2")),
            0);
  for (size_t capacity : {7, 4096, 1 << 20}) {
    SCOPED_TRACE(capacity);
    ReadResult r = read_all(dir.file("multi.bz2"), capacity);
    EXPECT_EQ(r.compression, Compression::kBzip2);
    EXPECT_FALSE(r.failed) << r.error.message;
    EXPECT_EQ(r.bytes, text);
  }
  std::string whole = testing::read_file(dir.file("multi.bz2"));
  write_file(dir.file("cut.bz2"), whole.substr(0, whole.size() - 100));
  ReadResult r = read_all(dir.file("cut.bz2"), 4096);
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.error.kind, InputError::kTruncatedCompressed);
  EXPECT_THAT(r.error.message, ::testing::HasSubstr(dir.file("cut.bz2")));
  // The first stream (a third of the text) decoded whole before the cut in the second.
  EXPECT_GE(r.bytes.size(), text.size() / 3);
  EXPECT_EQ(r.bytes, text.substr(0, r.bytes.size()));
}

}  // namespace
}  // namespace winnow
