#include "models/sentencepiece_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "models/sentencepiece_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class SentencePieceTokenizerTest : public ::testing::Test {
 protected:
  static std::shared_ptr<const SentencePieceTokenizer> load(const std::string& path) {
    auto model = SentencePieceTokenizer::load(path);
    EXPECT_TRUE(model.is_ok()) << model.status().message();
    return model.is_ok() ? model.value() : nullptr;
  }

  // Real lines: English (in the training text and not), German, Russian (no Cyrillic in the
  // training text: unknown pieces, or bytes with the BPE model), Polish.
  static std::vector<std::string> real_lines() {
    std::vector<std::string> lines;
    for (const char* path :
         {"/usr/share/common-licenses/GPL-3", "/usr/share/common-licenses/Artistic",
          "/usr/share/games/fortunes/de/computer", "/usr/share/games/fortunes/ru/2001.03",
          "/usr/share/games/fortunes/pl/7thguard"}) {
      for (auto& line : text_lines(path, 120)) lines.push_back(std::move(line));
    }
    // White space only, a lone space, tabs, a symbol outside the training text, an emoji.
    lines.insert(lines.end(), {"   ", " ", "\tfoo\tbar\t", "∑ x² ≥ 0", "ok 😀 👍🏽"});
    return lines;
  }
};

TEST_F(SentencePieceTokenizerTest, IdsEqualThoseOfSpmEncode) {
  std::vector<std::string> lines = real_lines();
  ASSERT_GT(lines.size(), 300u);
  for (const std::string& model_path : {unigram_model(), bpe_model()}) {
    auto model = load(model_path);
    ASSERT_TRUE(model);
    auto reference = spm_encode_ids(model_path, lines);
    ASSERT_EQ(reference.size(), lines.size());
    std::vector<int> ids;
    size_t total = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      model->encode(lines[i], ids);
      EXPECT_EQ(ids, reference[i]) << model_path << ": " << lines[i];
      EXPECT_EQ(model->count(lines[i]), reference[i].size()) << lines[i];
      total += ids.size();
    }
    EXPECT_GT(total, lines.size() * 5);  // real encodings, not empty ones
  }
}

TEST_F(SentencePieceTokenizerTest, EmptyAndWhiteSpaceTextsHaveNoPiece) {
  auto model = load(unigram_model());
  ASSERT_TRUE(model);
  EXPECT_EQ(model->count(""), 0u);
  // The default normaliser (nmt_nfkc) drops leading, trailing and repeated white space.
  EXPECT_EQ(model->count("   "), 0u);
  EXPECT_EQ(model->count(" \n\t "), 0u);
  EXPECT_GT(model->count("a"), 0u);
}

TEST_F(SentencePieceTokenizerTest, MultiLineTextIsEncodedWhole) {
  // NeMo passes the whole document, newlines included, to one encode() call; nmt_nfkc reads a
  // newline as a space, so the count is that of the text on one line (spm_encode's unit).
  auto model = load(unigram_model());
  ASSERT_TRUE(model);
  std::string one_line = "This program is free software: you can redistribute it";
  std::string two_lines = "This program is free software:\nyou can redistribute it";
  auto reference = spm_encode_counts(unigram_model(), {one_line});
  EXPECT_EQ(model->count(two_lines), reference[0]);
}

TEST_F(SentencePieceTokenizerTest, SpecialTokenIds) {
  auto unigram = load(unigram_model());
  auto bpe = load(bpe_model());
  ASSERT_TRUE(unigram && bpe);
  EXPECT_EQ(unigram->bos_id(), 1);  // SentencePiece's defaults: <unk> 0, <s> 1, </s> 2
  EXPECT_EQ(unigram->eos_id(), 2);
  EXPECT_EQ(bpe->bos_id(), -1);
  EXPECT_GE(bpe->eos_id(), 0);
  EXPECT_EQ(unigram->vocab_size(), 2000);
}

TEST_F(SentencePieceTokenizerTest, OneCopyPerFile) {
  auto a = load(unigram_model());
  auto b = load(unigram_model());
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), load(bpe_model()).get());
}

TEST_F(SentencePieceTokenizerTest, MissingModelIsAnErrorNamingThePath) {
  auto model = SentencePieceTokenizer::load("/no/such/tokenizer.model");
  ASSERT_FALSE(model.is_ok());
  EXPECT_THAT(model.status().message(), HasSubstr("/no/such/tokenizer.model"));
  EXPECT_THAT(model.status().message(), HasSubstr("does not exist"));
  TempDir dir;
  EXPECT_FALSE(SentencePieceTokenizer::load(dir.path()).is_ok());  // a folder
}

TEST_F(SentencePieceTokenizerTest, CorruptModelIsAnErrorNamingThePath) {
  TempDir dir;
  for (const std::string& bytes : {std::string("this is not a SentencePiece model\n"),
                                   std::string(), read_file(unigram_model()).substr(0, 5000)}) {
    write_file(dir.file("broken.model"), bytes);
    auto model = SentencePieceTokenizer::load(dir.file("broken.model"));
    ASSERT_FALSE(model.is_ok()) << bytes.size();
    EXPECT_THAT(model.status().message(), HasSubstr(dir.file("broken.model")));
    EXPECT_THAT(model.status().message(), HasSubstr("cannot load SentencePiece model"));
  }
}

TEST_F(SentencePieceTokenizerTest, ConcurrentEncodingGivesTheSameCounts) {
  auto model = load(bpe_model());
  ASSERT_TRUE(model);
  std::vector<std::string> lines = real_lines();
  std::vector<size_t> expected;
  for (const auto& line : lines) expected.push_back(model->count(line));
  std::vector<std::vector<size_t>> seen(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        // Each thread walks the lines from a different start.
        for (size_t k = 0; k < lines.size(); ++k) {
          size_t i = (k + t * 37) % lines.size();
          if (round == 0) seen[t].resize(lines.size());
          seen[t][i] = model->count(lines[i]);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(seen[t], expected) << "thread " << t;
}

}  // namespace
}  // namespace winnow::testing
