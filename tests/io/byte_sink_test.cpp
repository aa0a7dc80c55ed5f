#include "io/byte_sink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zstd.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "io/byte_source.h"
#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::read_decompressed;
using testing::read_file;
using testing::TempDir;

std::string make_data(size_t size, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out;
  out.reserve(size);
  static constexpr std::string_view kWords[] = {
      "alpha ", "beta ", "gamma\n", "{\"text\":", "\\u00e9 ", "zeta, ", "\xc3\xa9t\xc3\xa9 "};
  while (out.size() < size) {
    if (rng() % 16 == 0) {
      for (int i = 0; i < 40; ++i) out.push_back(static_cast<char>(rng()));
    } else {
      out += kWords[rng() % std::size(kWords)];
    }
  }
  out.resize(size);
  return out;
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string temp_name_of(const std::string& final_name) {
  return "." + final_name + ".tmp-" + std::to_string(::getpid());
}

std::unique_ptr<ByteSink> make_sink(const std::string& path, Compression c, int level) {
  auto sink = ByteSink::create(path, c, level);
  EXPECT_TRUE(sink.is_ok()) << sink.status().message();
  if (!sink.is_ok()) return nullptr;
  return std::move(sink).value();
}

// Writes `data` split at the given chunk sizes (cycled), then finishes.
void write_split(const std::string& path, Compression c, int level, std::string_view data,
                 const std::vector<size_t>& chunks) {
  auto sink = make_sink(path, c, level);
  ASSERT_NE(sink, nullptr);
  size_t pos = 0, k = 0;
  while (pos < data.size()) {
    size_t n = std::min(chunks[k++ % chunks.size()], data.size() - pos);
    ASSERT_TRUE(sink->write(data.substr(pos, n)).is_ok());
    pos += n;
  }
  EXPECT_EQ(sink->bytes_in(), data.size());
  ASSERT_TRUE(sink->finish().is_ok());
}

int default_level(Compression c) { return c == Compression::kGzip ? 6 : 3; }

class ByteSinkTest : public ::testing::TestWithParam<Compression> {};

TEST_P(ByteSinkTest, OutputDoesNotDependOnHowWritesAreSplit) {
  Compression c = GetParam();
  TempDir dir;
  // Over 1 MiB so the plain sink's buffer flushes mid-stream, and a few zstd blocks.
  std::string data = make_data(2'500'000, 7);
  std::string whole = dir.file("whole");
  std::string small = dir.file("small");
  std::string mixed = dir.file("mixed");
  write_split(whole, c, default_level(c), data, {data.size()});
  write_split(small, c, default_level(c), data, {1, 3, 17, 255, 1000, 4099});
  // Includes writes larger than the plain sink's 1 MiB buffer.
  write_split(mixed, c, default_level(c), data, {5, (1u << 20) + 3, 70000, 1u << 20});
  std::string expected = read_file(whole);
  EXPECT_TRUE(read_file(small) == expected) << "small writes changed the output";
  EXPECT_TRUE(read_file(mixed) == expected) << "mixed writes changed the output";
  EXPECT_TRUE(read_decompressed(whole) == data);
}

TEST_P(ByteSinkTest, OutputReadsBackToTheInputAndHasTheRightFormat) {
  Compression c = GetParam();
  TempDir dir;
  for (size_t size : {0u, 1u, 7u, 65537u, 1u << 20, (1u << 20) + 1}) {
    SCOPED_TRACE(size);
    std::string data = make_data(size, size + 1);
    std::string path = dir.file("out" + std::to_string(size));
    write_split(path, c, default_level(c), data, {4096});
    EXPECT_TRUE(read_decompressed(path) == data);
    std::string bytes = read_file(path);
    if (c == Compression::kNone) {
      EXPECT_TRUE(bytes == data);
    } else {
      // Even empty compressed output is a valid, detectable stream.
      ASSERT_GE(bytes.size(), 4u);
      EXPECT_EQ(detect_compression(bytes), c);
    }
  }
}

TEST_P(ByteSinkTest, EveryLevelRoundTrips) {
  Compression c = GetParam();
  TempDir dir;
  std::string data = make_data(300'000, 3);
  std::vector<int> levels =
      c == Compression::kZstd ? std::vector<int>{1, 3, 9, 19} : std::vector<int>{1, 6, 9};
  for (int level : levels) {
    std::string path = dir.file("l" + std::to_string(level));
    write_split(path, c, level, data, {65536});
    EXPECT_TRUE(read_decompressed(path) == data) << "level " << level;
  }
}

TEST_P(ByteSinkTest, NothingUnderTheFinalNameBeforeFinish) {
  Compression c = GetParam();
  TempDir dir;
  std::string path = dir.file("part-0.jsonl");
  auto sink = make_sink(path, c, default_level(c));
  ASSERT_NE(sink, nullptr);
  std::string data = make_data(3'000'000, 11);
  ASSERT_TRUE(sink->write(data).is_ok());
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{temp_name_of("part-0.jsonl")});
  ASSERT_TRUE(sink->finish().is_ok());
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"part-0.jsonl"});
  EXPECT_TRUE(read_decompressed(path) == data);
}

TEST_P(ByteSinkTest, DestroyedWithoutFinishLeavesNoFile) {
  Compression c = GetParam();
  TempDir dir;
  std::string path = dir.file("part-1.jsonl");
  {
    auto sink = make_sink(path, c, default_level(c));
    ASSERT_NE(sink, nullptr);
    ASSERT_TRUE(sink->write(make_data(2'000'000, 12)).is_ok());
    EXPECT_FALSE(list_dir(dir.path()).empty());
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(list_dir(dir.path()).empty()) << list_dir(dir.path()).front();
}

TEST_P(ByteSinkTest, DestroyedWithoutWritesLeavesNoFile) {
  Compression c = GetParam();
  TempDir dir;
  { auto sink = make_sink(dir.file("x"), c, default_level(c)); }
  EXPECT_TRUE(list_dir(dir.path()).empty());
}

TEST_P(ByteSinkTest, FinishReplacesAnExistingFile) {
  Compression c = GetParam();
  TempDir dir;
  std::string path = dir.file("out");
  testing::write_file(path, "old contents that must disappear");
  write_split(path, c, default_level(c), "new\n", {100});
  EXPECT_EQ(read_decompressed(path), "new\n");
}

TEST_P(ByteSinkTest, CreateInAMissingDirectoryFails) {
  Compression c = GetParam();
  TempDir dir;
  std::string path = dir.file("no/such/dir/out.jsonl");
  auto sink = ByteSink::create(path, c, default_level(c));
  ASSERT_FALSE(sink.is_ok());
  EXPECT_THAT(sink.status().message(), HasSubstr(dir.file("no/such/dir")));
}

INSTANTIATE_TEST_SUITE_P(AllCompressions, ByteSinkTest,
                         ::testing::Values(Compression::kNone, Compression::kGzip,
                                           Compression::kZstd),
                         [](const auto& info) {
                           return std::string(compression_name(info.param));
                         });

// A budget of `limit` extra threads that records the most ever taken at once.
class CountingAllowance final : public CpuAllowance {
 public:
  explicit CountingAllowance(int limit) : free_(limit) {}
  int try_take(int wanted) override {
    std::lock_guard lock(mutex_);
    int taken = std::min(wanted, free_);
    free_ -= taken;
    out_ += taken;
    peak_ = std::max(peak_, out_);
    return taken;
  }
  void give_back(int taken) override {
    std::lock_guard lock(mutex_);
    free_ += taken;
    out_ -= taken;
  }
  int out() {
    std::lock_guard lock(mutex_);
    return out_;
  }
  int peak() {
    std::lock_guard lock(mutex_);
    return peak_;
  }

 private:
  std::mutex mutex_;
  int free_;
  int out_ = 0;
  int peak_ = 0;
};

// Compressing with the threads a budget lends: the same bytes whatever it lends, never more
// threads than it lends, every one given back.
TEST_P(ByteSinkTest, BorrowedThreadsChangeNoByteAndAllComeBack) {
  Compression c = GetParam();
  if (c == Compression::kNone) GTEST_SKIP() << "plain output compresses nothing";
  TempDir dir;
  std::string data = make_data(5 * (4u << 20) + 777, 41);  // five jobs and a partial one
  std::string alone = dir.file("alone");
  write_split(alone, c, 1, data, {1u << 20});
  for (int lend : {0, 1, 3}) {
    SCOPED_TRACE(lend);
    CountingAllowance allowance(lend);
    std::string path = dir.file("lent" + std::to_string(lend));
    {
      auto sink = ByteSink::create(path, c, 1, {&allowance, 4});
      ASSERT_TRUE(sink.is_ok()) << sink.status().message();
      for (size_t pos = 0; pos < data.size(); pos += 999'983) {
        ASSERT_TRUE((*sink)->write(std::string_view(data).substr(pos, 999'983)).is_ok());
      }
      ASSERT_TRUE((*sink)->finish().is_ok());
    }
    EXPECT_TRUE(read_file(path) == read_file(alone)) << "bytes differ";
    EXPECT_EQ(read_decompressed(path), data);
    EXPECT_LE(allowance.peak(), lend);
    EXPECT_EQ(allowance.out(), 0);
  }
}

// A sink that hands bytes straight to zstd (no thread to lend) and one that holds them for
// lent threads write the same frame, also for a stream with no bytes and one under a job.
TEST(ByteSinkZstd, SameFrameWhetherBytesGoStraightToZstdOrWait) {
  TempDir dir;
  for (size_t size : {size_t{0}, size_t{1000}, size_t{(4u << 20) - 1}, size_t{(4u << 20) + 1}}) {
    SCOPED_TRACE(size);
    std::string data = make_data(size, 5);
    std::string straight = dir.file("straight"), waiting = dir.file("waiting");
    CountingAllowance none(0), lent(2);
    for (auto [path, threads] : {std::pair{straight, CompressionThreads{&none, 1}},
                                 std::pair{waiting, CompressionThreads{&lent, 3}}}) {
      auto sink = ByteSink::create(path, Compression::kZstd, 3, threads);
      ASSERT_TRUE(sink.is_ok()) << sink.status().message();
      for (size_t pos = 0; pos < data.size(); pos += 65'537) {
        ASSERT_TRUE((*sink)->write(std::string_view(data).substr(pos, 65'537)).is_ok());
      }
      ASSERT_TRUE((*sink)->finish().is_ok());
    }
    EXPECT_TRUE(read_file(straight) == read_file(waiting)) << "bytes differ";
    EXPECT_EQ(read_decompressed(straight), data);
  }
}

TEST(ByteSinkZstd, OneFrameWhateverTheWrites) {
  TempDir dir;
  // Several 128 KiB blocks and more than one window at level 1.
  std::string data = make_data(7'000'000, 21);
  std::string whole = dir.file("whole"), split = dir.file("split");
  write_split(whole, Compression::kZstd, 1, data, {data.size()});
  write_split(split, Compression::kZstd, 1, data, {1000, 33, 65536});
  std::string expected = read_file(whole);
  EXPECT_TRUE(read_file(split) == expected) << "small writes differ";
  EXPECT_TRUE(read_decompressed(split) == data);
  // A single frame: its compressed size is the whole file's.
  EXPECT_EQ(ZSTD_findFrameCompressedSize(expected.data(), expected.size()), expected.size());
}

TEST(ByteSinkZstd, FramesCarryAChecksum) {
  TempDir dir;
  write_split(dir.file("c.zst"), Compression::kZstd, 3, make_data(1000, 1), {1000});
  std::string bytes = read_file(dir.file("c.zst"));
  ASSERT_GE(bytes.size(), 5u);
  // Frame header descriptor, bit 2: content checksum flag.
  EXPECT_TRUE(static_cast<unsigned char>(bytes[4]) & 0x04);
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(ByteSinkGzip, PiecesAreMembersCutAtFixedOffsets) {
  TempDir dir;
  // Several 4 MiB pieces plus a partial one, so whole pieces and the tail are both written.
  std::string data = make_data(3 * (4u << 20) + 12345, 31);
  std::string one = dir.file("one"), split = dir.file("split");
  write_split(one, Compression::kGzip, 1, data, {data.size()});
  write_split(split, Compression::kGzip, 1, data, {999, 1u << 20, 77});
  std::string expected = read_file(one);
  EXPECT_TRUE(read_file(split) == expected) << "small writes differ";
  EXPECT_TRUE(read_decompressed(split) == data);
  // One gzip member per piece: four members, each starting with the gzip magic.
  size_t members = 0;
  for (size_t at = expected.find("\x1f\x8b\x08"); at != std::string::npos;
       at = expected.find("\x1f\x8b\x08", at + 1)) {
    ++members;
  }
  EXPECT_GE(members, 4u);
}

}  // namespace
}  // namespace winnow
