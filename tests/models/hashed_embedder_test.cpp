#include "models/hashed_embedder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace winnow {
namespace {

std::vector<float> embed(const HashedEmbedder& embedder, std::string_view text) {
  std::vector<float> v(embedder.options().dimensions);
  embedder.embed(text, v);
  return v;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

// ---- An independent reference: the exact, unhashed, unprojected feature vectors ----
// Words as the embedder defines them (runs of ASCII letters/digits or non-ASCII bytes, ASCII
// lowercased), spelt out plainly with strings and maps.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (unsigned char c : text) {
    if (c >= 0x80 || std::isalnum(c)) {
      word.push_back(static_cast<char>(std::tolower(c)));
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

using Features = std::map<std::string, double>;

// Each family's sublinear-TF vector, unit norm.
void add_family(Features& out, const std::map<std::string, int>& counts, const char* tag) {
  double squares = 0;
  for (const auto& [f, c] : counts) squares += std::pow(1 + std::log(c), 2);
  for (const auto& [f, c] : counts) out[tag + f] = (1 + std::log(c)) / std::sqrt(squares);
}

Features reference_features(std::string_view text, int word_ngrams, int char_ngram) {
  std::vector<std::string> words = words_of(text);
  std::map<std::string, int> word_counts, char_counts;
  for (int n = 1; n <= word_ngrams; ++n) {
    for (size_t i = 0; i + n <= words.size(); ++i) {
      std::string gram = std::to_string(n);
      for (int k = 0; k < n; ++k) gram += "|" + words[i + k];
      ++word_counts[gram];
    }
  }
  std::string joined;
  for (const auto& w : words) joined += (joined.empty() ? "" : " ") + w;
  std::vector<std::string> points;  // code points (valid UTF-8 in these tests)
  for (size_t i = 0; i < joined.size();) {
    size_t len = 1;
    while (i + len < joined.size() &&
           (static_cast<unsigned char>(joined[i + len]) & 0xC0) == 0x80) {
      ++len;
    }
    points.push_back(joined.substr(i, len));
    i += len;
  }
  for (size_t i = 0; i + char_ngram <= points.size(); ++i) {
    ++char_counts[std::accumulate(points.begin() + i, points.begin() + i + char_ngram,
                                  std::string())];
  }
  Features features;
  add_family(features, word_counts, "w:");
  add_family(features, char_counts, "c:");
  return features;
}

// The cosine the embedding approximates: each family contributes its own cosine, equally.
double reference_cosine(const Features& a, const Features& b) {
  double sum = 0, na = 0, nb = 0;
  for (const auto& [f, v] : a) {
    na += v * v;
    auto it = b.find(f);
    if (it != b.end()) sum += v * it->second;
  }
  for (const auto& [f, v] : b) nb += v * v;
  return sum / std::sqrt(na * nb);
}

// Real documents from the machine: licence texts (near-duplicates among them) and parts of the
// Debian Reference in English, German and Japanese (paragraphs gathered to 2-3 KB).
std::vector<std::string> real_texts() {
  std::vector<std::string> texts;
  std::vector<std::filesystem::path> folders;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/share/doc")) {
    folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    std::ifstream in(folder / "copyright", std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.size() < 2000) continue;
    texts.push_back(text.substr(0, 3000));
    if (texts.size() == 20) break;
  }
  for (const char* language : {"en", "de", "ja"}) {
    std::string all = testing::read_decompressed(
        std::string("/usr/share/doc/debian-reference-common/docs/debian-reference.") + language +
        ".txt.gz");
    std::string chunk;
    int taken = 0;
    for (size_t start = all.size() / 3; start < all.size() && taken < 7;) {
      size_t end = all.find("\n\n", start);
      if (end == std::string::npos) end = all.size();
      chunk += all.substr(start, end - start) + "\n\n";
      start = end + 2;
      if (chunk.size() >= 2000) {
        texts.push_back(std::move(chunk));
        chunk.clear();
        ++taken;
      }
    }
  }
  return texts;
}

TEST(HashedEmbedder, VectorsAreUnitLengthAndDeterministic) {
  HashedEmbedder embedder({});
  std::vector<float> a = embed(embedder, "The quick brown fox jumps over the lazy dog.");
  ASSERT_EQ(a.size(), 384u);
  EXPECT_NEAR(dot(a, a), 1.0, 1e-5);
  EXPECT_EQ(embed(embedder, "The quick brown fox jumps over the lazy dog."), a);
  // Case and punctuation are not features.
  EXPECT_EQ(embed(embedder, "the QUICK brown fox -- jumps over the lazy dog"), a);
  // Another instance with the same options gives the same vector; another seed does not.
  EXPECT_EQ(embed(HashedEmbedder({}), "The quick brown fox jumps over the lazy dog."), a);
  HashedEmbedderOptions seeded;
  seeded.seed = 7;
  EXPECT_NE(embed(HashedEmbedder(seeded), "The quick brown fox jumps over the lazy dog."), a);
}

TEST(HashedEmbedder, TextsWithoutFeaturesGetTheZeroVector) {
  HashedEmbedder embedder({});
  for (std::string_view text : {"", "   ", "!?,.;:--", "\n\t"}) {
    std::vector<float> v = embed(embedder, text);
    EXPECT_EQ(dot(v, v), 0.0) << text;
  }
  // One short word still has a character gram of its own.
  std::vector<float> v = embed(embedder, "ok");
  EXPECT_NEAR(dot(v, v), 1.0, 1e-5);
}

TEST(HashedEmbedder, OtherDimensionsAndScripts) {
  HashedEmbedderOptions options;
  options.dimensions = 7;
  HashedEmbedder embedder(options);
  for (std::string_view text : {"日本語のテキストです。", "Привет, мир", "x", "\xff\xfe broken"}) {
    std::vector<float> v = embed(embedder, text);
    ASSERT_EQ(v.size(), 7u);
    EXPECT_NEAR(dot(v, v), 1.0, 1e-5) << text;
  }
}

// Cosines of embeddings estimate the cosines of the exact feature vectors (computed above
// without hashing or projection): within the projection's error, which shrinks as
// 1/sqrt(dimensions).
TEST(HashedEmbedder, CosinesMatchTheExactFeatureCosines) {
  std::vector<std::string> texts = real_texts();
  ASSERT_GE(texts.size(), 40u);
  // Near-duplicates too: a text with a sentence appended, one with a word changed.
  texts.push_back(texts[0] + " This paragraph was added at the end of the text.");
  std::string changed = texts[1];
  changed.replace(changed.find(' '), 1, " edited ");
  texts.push_back(changed);
  HashedEmbedderOptions options;
  options.dimensions = 4096;
  HashedEmbedder embedder(options);
  std::vector<std::vector<float>> vectors;
  std::vector<Features> features;
  for (const auto& t : texts) {
    vectors.push_back(embed(embedder, t));
    features.push_back(reference_features(t, options.word_ngrams, options.char_ngram));
  }
  double total_error = 0, worst = 0;
  int pairs = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t j = i + 1; j < texts.size(); ++j) {
      double error =
          std::fabs(dot(vectors[i], vectors[j]) - reference_cosine(features[i], features[j]));
      total_error += error;
      worst = std::max(worst, error);
      ++pairs;
    }
  }
  std::printf("mean error %.4f, worst %.4f over %d pairs\n", total_error / pairs, worst, pairs);
  EXPECT_LT(total_error / pairs, 0.03);
  EXPECT_LT(worst, 0.1);
  size_t n = texts.size();
  EXPECT_GT(dot(vectors[n - 2], vectors[0]), 0.9);
  EXPECT_GT(dot(vectors[n - 1], vectors[1]), 0.9);
}

TEST(HashedEmbedder, ThreadsGetTheSameVectors) {
  std::vector<std::string> texts = real_texts();
  HashedEmbedder embedder({});
  std::vector<std::vector<float>> expected;
  for (const auto& t : texts) expected.push_back(embed(embedder, t));
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < texts.size(); ++k) {
        size_t i = (k * 7 + t) % texts.size();  // each thread in its own order
        mismatches[t] += embed(embedder, texts[i]) != expected[i];
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0) << t;
}

}  // namespace
}  // namespace winnow
