#include "models/fasttext_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <thread>

#include "models/fasttext_test_models.h"
#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;

const std::string kLid = std::string(WINNOW_SOURCE_DIR) + "/models/lid.176.ftz";

std::shared_ptr<const FastTextModel> load_lid() {
  auto model = FastTextModel::load(kLid);
  if (!model.is_ok()) throw std::runtime_error(model.status().message());
  return model.value();
}

TEST(FastTextModel, LanguageIdModelPredictsLanguages) {
  auto model = load_lid();
  EXPECT_EQ(model->labels().size(), 176u);
  EXPECT_EQ(model->label_prefix(), "__label__");
  std::vector<FastTextPrediction> top;
  model->predict("The quick brown fox jumps over the lazy dog near the river bank.", 1, top);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(model->labels()[top[0].label], "en");
  EXPECT_GT(top[0].probability, 0.8f);
  model->predict("Der schnelle braune Fuchs springt über den faulen Hund.", 1, top);
  EXPECT_EQ(model->labels()[top[0].label], "de");
  model->predict("Быстрая коричневая лиса прыгает через ленивую собаку.", 1, top);
  EXPECT_EQ(model->labels()[top[0].label], "ru");

  // Every label fastText reports (it prunes those below about 1e-5), best first, probabilities
  // summing to about one.
  std::vector<FastTextPrediction> all;
  model->predict("Le renard brun rapide saute par-dessus le chien paresseux.", -1, all);
  ASSERT_GT(all.size(), 20u);
  ASSERT_LE(all.size(), 176u);
  EXPECT_EQ(model->labels()[all[0].label], "fr");
  double sum = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    sum += all[i].probability;
    if (i) {
      EXPECT_LE(all[i].probability, all[i - 1].probability);
    }
  }
  EXPECT_NEAR(sum, 1.0, 0.01);
  EXPECT_EQ(model->find_label("__label__fr"), all[0].label);
  EXPECT_EQ(model->find_label("fr"), all[0].label);
  EXPECT_EQ(model->find_label("xx-none"), -1);

  // A text without words still has the end-of-line token, as in Python: a (poor) prediction.
  model->predict(" \n\t ", 1, top);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_LT(top[0].probability, 0.5f);
}

// A document is one line: newlines read as spaces, as NeMo's text.replace("\n", " ").
TEST(FastTextModel, NewlinesReadAsSpaces) {
  auto model = load_lid();
  std::vector<FastTextPrediction> joined, split;
  model->predict("Hello there.\nDas ist ein deutscher Satz mit vielen deutschen Wörtern.", 1,
                 split);
  model->predict("Hello there. Das ist ein deutscher Satz mit vielen deutschen Wörtern.", 1,
                 joined);
  ASSERT_EQ(split.size(), 1u);
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_EQ(split[0].label, joined[0].label);
  EXPECT_EQ(split[0].probability, joined[0].probability);
  EXPECT_EQ(model->labels()[split[0].label], "de");  // not just the first line
}

// The probabilities are those of fastText's own command line (which, like Python's predict,
// reads the text as one line ending in a newline).
TEST(FastTextModel, MatchesTheFastTextCommandLine) {
  if (testing::run_command("command -v fasttext >/dev/null") != 0) {
    GTEST_SKIP() << "the fasttext command is not installed";
  }
  testing::TempDir dir;
  const std::vector<std::string> lines = {
      "Debian is a free operating system developed by volunteers all over the world.",
      "Debian ist ein freies Betriebssystem, das von Freiwilligen entwickelt wird.",
      "Debian est un système d'exploitation libre développé par des bénévoles.",
      "Debian は世界中のボランティアによって開発されたフリーなオペレーティングシステムです。",
      "a b c"};
  std::string input;
  for (const auto& line : lines) input += line + "\n";
  testing::write_file(dir.file("in.txt"), input);
  std::string out;
  ASSERT_EQ(
      testing::run_command("fasttext predict-prob " + kLid + " " + dir.file("in.txt") + " 1", &out),
      0)
      << out;
  std::istringstream cli(out);
  auto model = load_lid();
  std::vector<FastTextPrediction> top;
  for (const auto& line : lines) {
    std::string label;
    double probability = 0;
    ASSERT_TRUE(cli >> label >> probability) << out;
    model->predict(line, 1, top);
    ASSERT_EQ(top.size(), 1u);
    EXPECT_EQ("__label__" + model->labels()[top[0].label], label) << line;
    EXPECT_NEAR(top[0].probability, probability, 1e-4) << line;
  }
}

TEST(FastTextModel, TrainedQualityModelAndSharing) {
  testing::TempDir dir;
  std::string path = testing::train_quality_model(dir);
  auto model = FastTextModel::load(path);
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  EXPECT_EQ(model.value()->labels_text().size(), 6u);  // "hq, lq" in some order
  int32_t hq = model.value()->find_label("__label__hq");
  ASSERT_GE(hq, 0);
  std::mt19937 rng(99);
  std::vector<FastTextPrediction> top;
  model.value()->predict(testing::quality_text(true, rng), 1, top);
  EXPECT_EQ(top[0].label, hq);
  model.value()->predict(testing::quality_text(false, rng), 1, top);
  EXPECT_NE(top[0].label, hq);
  // A second load of the same file shares the loaded model.
  auto again = FastTextModel::load(path);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(again.value().get(), model.value().get());
}

// Softmax models take winnow's own reading (compact vocabulary) and forward pass (prefetching
// rows); they must give exactly libfasttext's probabilities and order, for top-1 and for every
// label, on text with unknown words, labels, every separator and non-ASCII bytes.
TEST(FastTextModel, SoftmaxFastPathEqualsLibFastText) {
  testing::TempDir dir;
  for (int ngrams : {1, 3}) {
    auto model = FastTextModel::load(testing::train_quality_model(dir, ngrams));
    ASSERT_TRUE(model.is_ok());
    std::mt19937 rng(5);
    std::vector<FastTextPrediction> fast, reference;
    for (int i = 0; i < 500; ++i) {
      std::string text = testing::quality_text(i % 3 == 0, rng, 1 + i % 200);
      if (i % 5 == 0) text += " unknown words here\nand a second line " + std::to_string(i);
      if (i % 11 == 0) text += " __label__hq __label__other\t\r\v\f déjà vu \xE2\x80\x99 ";
      if (i % 7 == 0)
        text = testing::quality_text(true, rng, 20) + " " + testing::quality_text(false, rng, 20);
      for (int k : {1, -1}) {
        model.value()->predict(text, k, fast);
        model.value()->predict_reference(text, k, reference);
        ASSERT_EQ(fast.size(), reference.size()) << text;
        for (size_t j = 0; j < fast.size(); ++j) {
          EXPECT_EQ(fast[j].label, reference[j].label) << text;
          EXPECT_EQ(fast[j].probability, reference[j].probability) << text;
        }
      }
    }
  }
}

// Subword models (character n-grams) and pruned, quantized ones (.ftz) take winnow's reading
// too: the same ids in the same order as libfasttext's getLine, so the same probabilities,
// bit for bit. Texts hold unknown words (read as n-grams), multi-byte characters, labels and
// a literal end-of-sentence token (where getLine stops reading).
TEST(FastTextModel, SubwordAndPrunedModelsReadAsLibFastTextDoes) {
  testing::TempDir dir;
  std::vector<std::string> paths = {testing::train_quality_model(dir, 1, 2, 4),
                                    testing::train_quality_model(dir, 2, 3, 5),
                                    testing::train_quality_model(dir, 1, 2, 4, true),
                                    testing::train_quality_model(dir, 2, 2, 4, true), kLid};
  const std::vector<std::string> extra = {"déjà vu naïve café",
                                          "Привет мир, как дела?",
                                          "日本語のテキスト",
                                          "κόσμε ελληνικά",
                                          "x",
                                          "</s>",
                                          "__label__hq",
                                          "\t\v\f\r",
                                          "unknownword",
                                          "ab\xC3",
                                          "\xE2\x80\x99quoted"};
  for (const std::string& path : paths) {
    auto model = FastTextModel::load(path);
    ASSERT_TRUE(model.is_ok()) << path;
    std::mt19937 rng(17);
    std::vector<FastTextPrediction> fast, reference;
    for (int i = 0; i < 300; ++i) {
      std::string text = testing::quality_text(i % 2 == 0, rng, 1 + i % 60);
      for (int j = 0; j < 1 + i % 4; ++j) {
        text += (rng() % 3 == 0 ? "\n" : " ") + extra[rng() % extra.size()];
      }
      if (i % 9 == 0) text += " " + testing::quality_text(false, rng, 5);
      for (int k : {1, -1}) {
        model.value()->predict(text, k, fast);
        model.value()->predict_reference(text, k, reference);
        ASSERT_EQ(fast.size(), reference.size()) << path << ": " << text;
        for (size_t j = 0; j < fast.size(); ++j) {
          ASSERT_EQ(fast[j].label, reference[j].label) << path << ": " << text;
          ASSERT_EQ(fast[j].probability, reference[j].probability) << path << ": " << text;
        }
      }
    }
  }
}

TEST(FastTextModel, LoadErrorsNameThePath) {
  testing::TempDir dir;
  auto missing = FastTextModel::load(dir.file("nope.bin"));
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr(dir.file("nope.bin")));
  testing::write_file(dir.file("junk.bin"), "this is not a fastText model at all");
  auto junk = FastTextModel::load(dir.file("junk.bin"));
  ASSERT_FALSE(junk.is_ok());
  EXPECT_THAT(junk.status().message(), HasSubstr(dir.file("junk.bin")));
}

TEST(FastTextModel, ConcurrentPredictionsAgree) {
  auto model = load_lid();
  std::vector<std::string> texts = {
      "This is an English sentence about computers.", "Questo è un testo italiano sul computer.",
      "Это русский текст о компьютерах.", "Este es un texto en español sobre ordenadores."};
  std::vector<FastTextPrediction> expected_top;
  std::vector<FastTextPrediction> scratch;
  for (const auto& t : texts) {
    model->predict(t, 1, scratch);
    expected_top.push_back(scratch[0]);
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<FastTextPrediction> top;
      for (int i = 0; i < 2000; ++i) {
        size_t k = (i + t) % texts.size();
        model->predict(texts[k], 1, top);
        if (top.size() != 1 || top[0].label != expected_top[k].label ||
            top[0].probability != expected_top[k].probability) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace winnow
