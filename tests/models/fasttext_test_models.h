#pragma once
// Small supervised fastText models trained by the tests themselves (no classifier weights can
// be had offline): a binary quality model (__label__hq / __label__lq) learned from generated
// labelled text, deterministic (one training thread, fixed seed).
#include <fasttext/args.h>
#include <fasttext/fasttext.h>

#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

// Prose-like text for the high-quality class and spam-like text for the low one, drawn from
// disjoint vocabularies so the trained model separates them clearly.
inline std::string quality_text(bool high, std::mt19937& rng, int words = 30) {
  static const std::vector<std::string> prose = {
      "the",     "committee",  "published", "a",        "detailed",     "report",   "on",
      "climate", "research",   "and",       "its",      "consequences", "for",      "coastal",
      "cities",  "scientists", "measured",  "sea",      "levels",       "over",     "decades",
      "while",   "historians", "studied",   "archives", "describing",   "earlier",  "floods",
      "careful", "analysis",   "shows",     "that",     "evidence",     "supports", "conclusion"};
  static const std::vector<std::string> spam = {
      "click", "here",   "buy",       "now",  "cheap", "free",    "viagra", "casino", "win",
      "$$$",   "!!!",    "bonus",     "deal", "sale",  "limited", "offer",  "xxx",    "hot",
      "girls", "online", "subscribe", "lol",  "best",  "price",   "order",  "today"};
  const auto& vocabulary = high ? prose : spam;
  std::string text;
  for (int i = 0; i < words; ++i) {
    if (i) text += ' ';
    text += vocabulary[rng() % vocabulary.size()];
  }
  return text;
}

// Trains the quality model into `dir` and returns its path. With `maxn` > 0 it also learns
// character n-grams of minn..maxn characters (as lid.176 does); `quantize` then prunes it to
// `cutoff` rows and product-quantizes it (a .ftz, the shape of lid.176.ftz).
inline std::string train_quality_model(const TempDir& dir, int word_ngrams = 1, int minn = 0,
                                       int maxn = 0, bool quantize = false) {
  std::mt19937 rng(7);
  std::string train;
  for (int i = 0; i < 400; ++i) {
    bool high = i % 2 == 0;
    train += std::string(high ? "__label__hq " : "__label__lq ") + quality_text(high, rng) + "\n";
  }
  std::string train_path = dir.file("quality.train");
  write_file(train_path, train);
  fasttext::Args args;
  args.input = train_path;
  args.model = fasttext::model_name::sup;
  args.loss = fasttext::loss_name::softmax;
  args.minCount = 1;
  args.minn = minn;
  args.maxn = maxn;
  args.lr = 0.5;
  args.dim = 16;
  args.epoch = 10;
  args.wordNgrams = word_ngrams;
  args.bucket = 10000;
  args.thread = 1;
  args.verbose = 0;
  fasttext::FastText model;
  model.train(args);
  std::string path =
      dir.file("quality-" + std::to_string(word_ngrams) + "-" + std::to_string(minn) + "-" +
               std::to_string(maxn) + (quantize ? ".ftz" : ".bin"));
  if (quantize) {
    fasttext::Args q = args;
    q.cutoff = 300;  // keep the 300 most useful rows: words and n-gram buckets pruned
    q.retrain = false;
    q.qnorm = true;
    q.dsub = 2;
    model.quantize(q);
  }
  model.saveModel(path);
  return path;
}

}  // namespace winnow::testing
