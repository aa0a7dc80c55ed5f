#pragma once
// NerTagger: person, location and organisation spans in texts from a token-classification model
// (models/token_classifier.h), for the `pii_redact` stage. As Hugging Face's pipelines with
// is_split_into_words=True: each text is split into words (text/ner_spans.h), each word is
// tokenised alone without special tokens, and the words are packed into windows of at most the
// model's max tokens (its specials around each), cut at word boundaries (a word longer than a
// whole window keeps its first tokens only). Each word takes the label of its first sub-token
// (the argmax of its logits); the words' BIO labels merge into spans covering their bytes.
// Windows of every text of a call run together, batched by length.
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "models/token_classifier.h"
#include "text/ner_spans.h"
#include "text/pii_detectors.h"

namespace winnow {

class NerTagger {
 public:
  // `entities`: which of PERSON, LOCATION, ORGANIZATION to report (others are taken as O).
  NerTagger(std::shared_ptr<const TokenClassifier> model, PiiEntityMask entities);

  // The entity spans of each text (out[i] for texts[i], in text order, non-overlapping).
  Status find(std::span<const std::string_view> texts,
              std::vector<std::vector<PiiSpan>>& out) const;

  const TokenClassifier& model() const { return *model_; }

 private:
  // Where a word's first sub-token sits: a window (row) and a position in it; row -1 for a
  // word the tokenizer gives no token.
  struct Slot {
    int64_t row = -1;
    size_t position = 0;
  };
  // Appends the windows of one text to `rows` and each word's slot to `slots`.
  void pack_windows(std::string_view text, std::span<const WordRange> words,
                    std::vector<std::vector<int64_t>>& rows, std::vector<Slot>& slots) const;
  BioTag tag_of(const std::vector<float>& logits, size_t position) const;

  std::shared_ptr<const TokenClassifier> model_;
  std::vector<BioTag> label_tags_;  // by label id, O for entities not asked for
};

}  // namespace winnow
