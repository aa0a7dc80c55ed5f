#include "models/split_on_oom.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "models/onnx_session.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;

// ONNX Runtime's own words when its arena is at its limit (bfc_arena.cc), as a run returns them.
Status arena_full() {
  return Status::error(
      "ONNX model 'm.onnx': Non-zero status code returned while running MatMul node. Status "
      "Message: BFCArena::AllocateRawInternal Available memory of 87808 is smaller than "
      "requested bytes of 3145728");
}

// A run that fits at most `fits` rows: the pieces are halves, in order, each row once.
TEST(SplitOnOom, HalvesUntilThePiecesFitInOrder) {
  std::vector<size_t> rows(11);
  std::iota(rows.begin(), rows.end(), 100);
  std::vector<size_t> done, tried;
  auto run = [&](std::span<const size_t> piece) {
    tried.push_back(piece.size());
    if (piece.size() > 3) return arena_full();
    done.insert(done.end(), piece.begin(), piece.end());
    return Status::ok();
  };
  auto alone = [](size_t, const Status& s) { return s; };
  ASSERT_TRUE(run_split_on_oom(rows, run, alone).is_ok());
  EXPECT_EQ(done, rows);
  // 11 → 5 + 6; 5 → 2 + 3; 6 → 3 + 3.
  EXPECT_EQ(tried, (std::vector<size_t>{11, 5, 2, 3, 6, 3, 3}));
}

TEST(SplitOnOom, OtherErrorsAreNotRetriedAndASingleRowIsAnError) {
  std::vector<size_t> rows = {7, 8, 9, 10};
  int calls = 0;
  auto broken = [&](std::span<const size_t>) {
    ++calls;
    return Status::error("ONNX model 'm.onnx': the model has no input 'ids'");
  };
  auto alone = [](size_t row, const Status& s) {
    return Status::errorf("row {} alone: {}", row, s.message());
  };
  EXPECT_THAT(run_split_on_oom(rows, broken, alone).message(), HasSubstr("no input 'ids'"));
  EXPECT_EQ(calls, 1);
  // Row 9 never fits: the rows before it ran, the error names it.
  std::vector<size_t> done;
  auto run = [&](std::span<const size_t> piece) {
    if (std::find(piece.begin(), piece.end(), 9) != piece.end()) return arena_full();
    done.insert(done.end(), piece.begin(), piece.end());
    return Status::ok();
  };
  Status status = run_split_on_oom(rows, run, alone);
  EXPECT_THAT(status.message(), HasSubstr("row 9 alone: "));
  EXPECT_THAT(status.message(), HasSubstr("smaller than requested bytes"));
  EXPECT_EQ(done, (std::vector<size_t>{7, 8}));
}

// The messages ONNX Runtime gives for lack of memory on the CPU and on CUDA, and some it gives
// for other failures.
TEST(SplitOnOom, RecognisesOrtOutOfMemoryMessages) {
  for (const char* message :
       {"Available memory of 0 is smaller than requested bytes of 4096",
        "BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 42",
        "CUDA failure 2: out of memory ; GPU=0 ; expr=cudaMalloc((void**)&p, size);",
        "CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED ; GPU=0",
        "CUDNN failure 4: CUDNN_STATUS_ALLOC_FAILED", "std::bad_alloc"}) {
    EXPECT_TRUE(OnnxSession::is_out_of_memory(Status::error(message))) << message;
  }
  for (const char* message :
       {"the model has no input 'ids'", "Got invalid dimensions for input: input_ids",
        "ONNX model 'x' does not exist or is not a file"}) {
    EXPECT_FALSE(OnnxSession::is_out_of_memory(Status::error(message))) << message;
  }
  EXPECT_FALSE(OnnxSession::is_out_of_memory(Status::ok()));
}

}  // namespace
}  // namespace winnow
