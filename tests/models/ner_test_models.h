#pragma once
// A small token-classification (NER) model folder for the tests: a seeded BERT with a
// per-token head (tests/models/bert_test_model.py --head token), a WordPiece tokenizer.json of
// a few words, and BIO labels. Planted logits make chosen token ids take chosen labels; every
// other token gets O (its bias is raised well above the random logits), so the entities a text
// holds are known by hand.
#include <string>
#include <vector>

#include "models/onnx_test_models.h"
#include "models/wordpiece_test_models.h"

namespace winnow::testing {

// Labels by id, as config.json's id2label gives them.
inline const std::vector<std::string> kNerLabels = {"O",     "B-PER", "I-PER", "B-LOC",
                                                    "I-LOC", "B-ORG", "I-ORG", "B-MISC"};

// The vocabulary after the five specials ([PAD] 0, [UNK] 1, [CLS] 2, [SEP] 3, [MASK] 4): ids
// 5 and on, in this order.
inline const std::vector<std::string> kNerPieces = {
    "alice", "smith", "met", "in", "paris", "at", "acme",  "corp",   "bob",   ".",    "the", "##s",
    "new",   "york",  "and", ",",  "mail",  "is", "jones", "berlin", "today", "from", "euro"};

inline int64_t ner_piece_id(const std::string& piece) {
  for (size_t i = 0; i < kNerPieces.size(); ++i) {
    if (kNerPieces[i] == piece) return static_cast<int64_t>(i + 5);
  }
  throw std::runtime_error("no piece " + piece);
}

// Builds the model into `dir`: alice and bob B-PER, smith and jones I-PER, paris and berlin
// B-LOC, york I-LOC (an I- with no B- before it after "new"), acme B-ORG, corp I-ORG, euro
// B-MISC (not an entity winnow maps), and ##s B-ORG (a second sub-token, which must be
// ignored).
inline void build_ner_model(const std::string& dir, int max_positions = 64) {
  const std::vector<std::pair<std::string, int>> planted = {
      {"alice", 1}, {"bob", 1},  {"smith", 2}, {"jones", 2}, {"paris", 3}, {"berlin", 3},
      {"york", 4},  {"acme", 5}, {"corp", 6},  {"euro", 7},  {"##s", 5}};
  std::string plant, labels;
  for (const auto& [piece, label] : planted) {
    plant += (plant.empty() ? "" : ",") + std::to_string(ner_piece_id(piece)) + ":" +
             std::to_string(label);
  }
  for (const std::string& label : kNerLabels) labels += (labels.empty() ? "" : ",") + label;
  build_bert_model(dir, "--head token --labels 8 --seed 31 --vocab " +
                            std::to_string(kNerPieces.size() + 5) + " --max-positions " +
                            std::to_string(max_positions) + " --label-names " + labels +
                            " --plant " + plant + " --logit-shift=20,0,0,0,0,0,0,0");
  write_file(dir + "/tokenizer.json", wordpiece_json(kNerPieces, {.lowercase = true}));
}

}  // namespace winnow::testing
