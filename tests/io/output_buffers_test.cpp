#include "io/output_buffers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace winnow {
namespace {

// The pool is process-wide: each test starts by emptying it.
void drain() {
  while (OutputBuffers::kept() > 0) {
    std::string taken = OutputBuffers::take(0);
    (void)taken;  // dropped: its storage goes back to the heap
  }
}

TEST(OutputBuffers, AGivenBackBufferIsTakenAgainEmptyWithItsStorage) {
  drain();
  std::string buffer(100'000, 'x');
  const char* storage = buffer.data();
  OutputBuffers::give_back(std::move(buffer));
  EXPECT_EQ(OutputBuffers::kept(), 1u);
  std::string again = OutputBuffers::take(50'000);
  EXPECT_TRUE(again.empty());
  EXPECT_EQ(again.data(), storage) << "the same storage, not a fresh allocation";
  EXPECT_GE(again.capacity(), 100'000u);
  EXPECT_EQ(OutputBuffers::kept(), 0u);
}

TEST(OutputBuffers, TakesTheSmallestThatFitsElseTheLargest) {
  drain();
  std::vector<const char*> storage;
  for (size_t size : {300'000, 10'000, 1'000'000}) {
    std::string b(size, 'y');
    storage.push_back(b.data());
    OutputBuffers::give_back(std::move(b));
  }
  std::string fits = OutputBuffers::take(200'000);
  EXPECT_EQ(fits.data(), storage[0]);  // 300 KB: the smallest of at least 200 KB
  std::string none_fits = OutputBuffers::take(5'000'000);
  EXPECT_GE(none_fits.capacity(), 5'000'000u);  // the 1 MB one, grown
  std::string last = OutputBuffers::take(0);
  EXPECT_EQ(last.data(), storage[1]);
  EXPECT_EQ(OutputBuffers::kept(), 0u);
}

TEST(OutputBuffers, SmallAndHugeBuffersAreNotKept) {
  drain();
  OutputBuffers::give_back(std::string("short"));
  OutputBuffers::give_back(std::string());
  EXPECT_EQ(OutputBuffers::kept(), 0u);
  std::string huge;
  huge.reserve(OutputBuffers::kMaxBufferBytes + 1);
  OutputBuffers::give_back(std::move(huge));
  EXPECT_EQ(OutputBuffers::kept(), 0u);
}

TEST(OutputBuffers, KeepsAtMostItsLimit) {
  drain();
  for (size_t i = 0; i < OutputBuffers::kMaxBuffers + 5; ++i) {
    OutputBuffers::give_back(std::string(8192, 'z'));
  }
  EXPECT_EQ(OutputBuffers::kept(), OutputBuffers::kMaxBuffers);
  drain();
}

TEST(OutputBuffers, KeepsNoMoreBytesThanItsLimit) {
  drain();
  const size_t each = OutputBuffers::kMaxBufferBytes;  // the largest kept
  for (size_t i = 0; i < OutputBuffers::kMaxKeptBytes / each + 2; ++i) {
    std::string b;
    b.reserve(each);  // reserved, never touched: costs no memory
    OutputBuffers::give_back(std::move(b));
  }
  EXPECT_EQ(OutputBuffers::kept(), OutputBuffers::kMaxKeptBytes / each);
  drain();
}

TEST(OutputBuffers, ABatchGivesBackItsEncodedOutputsAndIsLeftEmpty) {
  drain();
  DocBatch batch;
  batch.encoded_kept.assign(20'000, 'k');
  batch.encoded_rejected.assign(30'000, 'r');
  batch.encoded_errors = "{}\n";  // too small to keep
  OutputBuffers::give_back(batch);
  EXPECT_TRUE(batch.encoded_kept.empty());
  EXPECT_TRUE(batch.encoded_rejected.empty());
  EXPECT_TRUE(batch.encoded_errors.empty());
  EXPECT_EQ(OutputBuffers::kept(), 2u);
  drain();
}

}  // namespace
}  // namespace winnow
