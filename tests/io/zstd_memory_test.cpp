#include "io/zstd_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace winnow {
namespace {

TEST(ZstdMemory, ALargeBlockFreedIsKeptAndHandedOutAgain) {
  ZSTD_customMem mem = ZstdMemory::custom_mem();
  const size_t before = ZstdMemory::kept_bytes();
  void* block = mem.customAlloc(mem.opaque, 5u << 20);
  ASSERT_NE(block, nullptr);
  std::memset(block, 0xab, 5u << 20);  // all of it is writable
  mem.customFree(mem.opaque, block);
  EXPECT_GT(ZstdMemory::kept_bytes(), before);
  void* again = mem.customAlloc(mem.opaque, 5u << 20);
  EXPECT_EQ(again, block) << "the kept block, not a new mapping";
  EXPECT_EQ(ZstdMemory::kept_bytes(), before);
  mem.customFree(mem.opaque, again);
}

TEST(ZstdMemory, SmallBlocksComeFromTheHeapAndAreNotKept) {
  ZSTD_customMem mem = ZstdMemory::custom_mem();
  const size_t before = ZstdMemory::kept_bytes();
  void* block = mem.customAlloc(mem.opaque, 1000);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 16, 0u);
  std::memset(block, 1, 1000);
  mem.customFree(mem.opaque, block);
  mem.customFree(mem.opaque, nullptr);
  EXPECT_EQ(ZstdMemory::kept_bytes(), before);
}

TEST(ZstdMemory, KeepsNoMoreThanItsLimit) {
  ZSTD_customMem mem = ZstdMemory::custom_mem();
  constexpr size_t kBlock = 64u << 20;
  std::vector<void*> blocks;
  for (size_t i = 0; i < ZstdMemory::kKeptBytes / kBlock + 3; ++i) {
    blocks.push_back(mem.customAlloc(mem.opaque, kBlock));
    ASSERT_NE(blocks.back(), nullptr);
  }
  for (void* b : blocks) mem.customFree(mem.opaque, b);
  EXPECT_LE(ZstdMemory::kept_bytes(), ZstdMemory::kKeptBytes);
}

// A compressor using this memory round-trips, twice (the second on kept blocks).
TEST(ZstdMemory, ContextsOnItCompressAndReuseIt) {
  std::string data;
  for (int i = 0; i < 200000; ++i) data += "word" + std::to_string(i % 977) + ' ';
  for (int round = 0; round < 2; ++round) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx_advanced(ZstdMemory::custom_mem());
    ASSERT_NE(cctx, nullptr);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 1);
    std::string out(ZSTD_compressBound(data.size()), '\0');
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_inBuffer in{data.data(), data.size(), 0};
    size_t left;
    do {
      left = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
      ASSERT_FALSE(ZSTD_isError(left));
    } while (left != 0);
    ZSTD_freeCCtx(cctx);
    std::string back(data.size(), '\0');
    size_t n = ZSTD_decompress(back.data(), back.size(), out.data(), o.pos);
    ASSERT_FALSE(ZSTD_isError(n));
    EXPECT_TRUE(back == data);
  }
  EXPECT_GT(ZstdMemory::kept_bytes(), 0u);
}

}  // namespace
}  // namespace winnow
