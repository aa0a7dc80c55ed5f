// GpuMinHasher against MinHashSigner (the CPU reference) on random documents of awkward sizes:
// signatures and band keys bit for bit, both shingle schemes, device-shingled and host-hashed
// documents mixed, chunks small enough that both streams take turns. Skipped without a device.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "dedup/fuzzy_keyer.h"
#include "dedup/gpu_minhash_pool.h"
#include "dedup/minhash_signer.h"
#include "gpu/gpu_minhasher.h"
#include "gpu/gpu_runtime.h"

namespace winnow {
namespace {

std::string random_text(std::mt19937_64& random, size_t bytes, bool ascii) {
  static const char* kWords[] = {"data",    "the",     "curation", "of",      "tokens", "GPU",
                                 "minhash", "shingle", "é",        "données", "日本語", "x"};
  std::string text;
  while (text.size() < bytes) {
    const char* word = kWords[random() % (ascii ? 8 : 12)];
    text += word;
    text += random() % 9 == 0 ? "\n" : " ";
    if (random() % 5 == 0) text += static_cast<char>('a' + random() % 26);
  }
  text.resize(bytes);
  if (!ascii) {
    // Cut where a code point starts, as real text would be.
    while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) {
      text.pop_back();
    }
  }
  return text;
}

std::string shape_name(const std::tuple<ShingleKind, int, int, int>& shape) {
  return std::string(std::get<0>(shape) == ShingleKind::kChars ? "chars" : "words") +
         std::to_string(std::get<1>(shape)) + "_" + std::to_string(std::get<2>(shape)) + "x" +
         std::to_string(std::get<3>(shape));
}

class GpuMinHasherTest : public ::testing::TestWithParam<std::tuple<ShingleKind, int, int, int>> {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  }
};

TEST_P(GpuMinHasherTest, EqualsTheCpuSignerBitForBit) {
  auto [kind, n, bands, rows] = GetParam();
#ifdef WINNOW_NO_WORD_SHINGLES
  if (kind == ShingleKind::kWords) {
    GTEST_SKIP() << "word shingles need utf8proc and ICU, which this GPU-only build was made "
                    "without (cmake/gpu_only.cmake)";
  }
#endif
  MinHashParams params;
  params.shingles = {kind, n};
  params.bands = bands;
  params.rows = rows;
  params.seed = 1234567 + static_cast<uint64_t>(n * bands * rows);
  MinHashSigner signer(params);
  gpu::GpuMinHashParams gp;
  gp.a = signer.permutation_a();
  gp.b = signer.permutation_b();
  gp.bands = bands;
  gp.rows = rows;
  gp.window = kind == ShingleKind::kChars ? n : 1;
  gp.chunk_hashes = 5000;  // many chunks: both streams in turn
  auto hasher = gpu::GpuMinHasher::create(gp);
  ASSERT_TRUE(hasher.is_ok()) << hasher.status().message();

  std::mt19937_64 random(static_cast<uint64_t>(n * 1000 + bands * 10 + rows));
  const size_t sizes[] = {1,
                          2,
                          3,
                          static_cast<size_t>(n) - 1,
                          static_cast<size_t>(n),
                          static_cast<size_t>(n) + 1,
                          17,
                          255,
                          1000,
                          3001,
                          12345,
                          70001};
  std::vector<std::string> texts;
  for (int i = 0; i < 300; ++i) {
    size_t bytes = i < 24 ? sizes[i % 12] : 1 + random() % 6000;
    texts.push_back(random_text(random, bytes, i % 4 != 3));
  }
  gpu::MinHashBatch batch(gp.window);
  std::vector<const std::string*> signed_texts;
  std::vector<uint32_t> hashes;
  for (const std::string& text : texts) {
    if (!(signer.shingler().byte_windows(text) && batch.add_text(text))) {
      signer.shingler().hashes(text, hashes);
      if (!batch.add_hashes(hashes)) continue;
    }
    signed_texts.push_back(&text);
  }
  std::vector<uint32_t> signatures;
  std::vector<uint64_t> keys;
  ASSERT_TRUE((*hasher)->run(batch, signatures, keys).is_ok());
  const size_t k = static_cast<size_t>(bands * rows);
  ASSERT_EQ(signatures.size(), signed_texts.size() * k);
  std::vector<uint32_t> expected;
  std::vector<uint64_t> expected_keys(static_cast<size_t>(bands));
  for (size_t d = 0; d < signed_texts.size(); ++d) {
    ASSERT_TRUE(signer.sign(*signed_texts[d], expected));
    signer.band_keys(expected, expected_keys.data());
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), signatures.begin() + d * k))
        << "document " << d << " (" << signed_texts[d]->size() << " bytes)";
    ASSERT_TRUE(std::equal(expected_keys.begin(), expected_keys.end(), keys.begin() + d * bands))
        << "document " << d;
  }
  // A second run on the same hasher (buffers reused) gives the same.
  std::vector<uint32_t> again;
  std::vector<uint64_t> again_keys;
  ASSERT_TRUE((*hasher)->run(batch, again, again_keys).is_ok());
  EXPECT_EQ(again, signatures);
  EXPECT_EQ(again_keys, keys);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GpuMinHasherTest,
    ::testing::Values(std::make_tuple(ShingleKind::kChars, 24, 20, 13),  // NeMo
                      std::make_tuple(ShingleKind::kWords, 5, 14, 8),    // FineWeb
                      std::make_tuple(ShingleKind::kChars, 5, 7, 3),     // k = 21
                      std::make_tuple(ShingleKind::kChars, 17, 3, 61),   // keys on the host
                      std::make_tuple(ShingleKind::kChars, 200, 9, 1),   // 129-240 byte path
                      std::make_tuple(ShingleKind::kChars, 3, 64, 64)),  // k = 4096
    [](const auto& info) { return shape_name(info.param); });

// The pool the fuzzy_dedup stage uses lends hashers that give the same as a fresh one.
TEST(GpuMinHashPool, LendsWorkingHashers) {
  if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  MinHashSigner signer(MinHashParams{});
  auto pool = GpuMinHashPool::create(signer);
  ASSERT_TRUE(pool.is_ok()) << pool.status().message();
  auto lease = (*pool)->take();
  ASSERT_NE(lease, nullptr);
  std::string text(3000, 'a');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + (i * 7919) % 26);
  ASSERT_TRUE(lease->batch.add_text(text));
  ASSERT_TRUE(lease->hasher->run(lease->batch, lease->signatures, lease->keys).is_ok());
  std::vector<uint32_t> expected;
  ASSERT_TRUE(signer.sign(text, expected));
  EXPECT_EQ(lease->signatures, expected);
  (*pool)->give_back(std::move(lease));
}

// fuzzy_dedup's keyer gives the same bucket records from a DocBatch on the GPU as on the CPU
// (rows without shingles, non-ASCII and short texts included).
TEST(GpuMinHashPool, FuzzyKeyerRecordsEqualTheCpus) {
  if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  std::mt19937_64 random(5);
  DocBatch batch;
  std::vector<std::string> texts;
  for (int i = 0; i < 500; ++i) {
    texts.push_back(i % 50 == 0 ? std::string() : random_text(random, random() % 5000, i % 3 != 0));
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    batch.add_document(DocKey::make(1, i), "", true, texts[i], {}, i + 1);
  }
  std::vector<size_t> rows;
  for (size_t i = 0; i < batch.size(); i += 1 + i % 2) rows.push_back(i);
  FuzzyKeyer cpu(MinHashParams{});
  FuzzyKeyer on_gpu(MinHashParams{});
  auto pool = GpuMinHashPool::create(on_gpu.signer());
  ASSERT_TRUE(pool.is_ok()) << pool.status().message();
  on_gpu.use_gpu(std::move(pool).value());
  std::vector<BucketRecord> expected, got;
  std::vector<uint8_t> expected_gave, gave;
  cpu.add_batch_records(batch, rows, expected, expected_gave);
  on_gpu.add_batch_records(batch, rows, got, gave);
  EXPECT_EQ(gave, expected_gave);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].hi, expected[i].hi) << i;
    ASSERT_EQ(got[i].lo, expected[i].lo) << i;
    ASSERT_EQ(got[i].doc, expected[i].doc) << i;
  }
}

TEST(GpuMinHashPool, RefusesTheOnePermutationScheme) {
  MinHashParams params;
  params.scheme = MinHashScheme::kOnePermutation;
  MinHashSigner signer(params);
  EXPECT_FALSE(GpuMinHashPool::create(signer).is_ok());
}

}  // namespace
}  // namespace winnow
