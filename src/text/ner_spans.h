#pragma once
// The word-level side of a token-classification (NER) model for the `pii_redact` stage: the
// words a text is split into before tokenising (Hugging Face's is_split_into_words=True), what
// a model's BIO label names mean, and the merging of per-word labels into entity spans.
//
// Labels: "O", "B-PER", "I-PER", ... as BERT-NER and GLiNER-style exports name them in
// config.json's id2label. The entity part maps to Presidio's names: PER/PERSON -> PERSON,
// LOC/LOCATION/GPE -> LOCATION, ORG/ORGANIZATION -> ORGANIZATION (any case); other entities
// (MISC, DATE, ...) are taken as O. B-/S- begin an entity, I-/E- continue one; a label without
// a prefix ("PER", the IO scheme) continues one.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "text/pii_detectors.h"

namespace winnow {

// A word's byte range in its text.
struct WordRange {
  size_t begin = 0;
  size_t end = 0;
  bool operator==(const WordRange&) const = default;
};

// The words of `text`, replacing `out`: maximal runs of bytes that are neither ASCII whitespace
// nor ASCII punctuation, and each ASCII punctuation character alone (as BERT's pre-tokenizer
// splits). Bytes of UTF-8 sequences belong to words.
void split_ner_words(std::string_view text, std::vector<WordRange>& out);

// One word's label: outside any entity, or the beginning or continuation of one.
struct BioTag {
  enum Kind : uint8_t { kOutside, kBegin, kInside };
  Kind kind = kOutside;
  PiiEntity entity = PiiEntity::kPerson;  // with kBegin or kInside
};

// What a label name of the model means (O for entities winnow does not map).
BioTag parse_bio_label(std::string_view label);

// Merges the words' tags into entity spans (words[i] tagged tags[i]), replacing `out`, in text
// order: a B- tag starts an entity; an I- tag continues the entity of the previous word when
// it is of the same kind, else starts one (an I- without a B-); O ends one. A span covers its
// first word's first byte to its last word's last byte.
void merge_bio_tags(std::span<const WordRange> words, std::span<const BioTag> tags,
                    std::vector<PiiSpan>& out);

// Adds the model's spans to the rule detectors' (`spans`, in text order), keeping its order:
// a model span that overlaps a rule span is left out (the rules' validated matches win).
void add_ner_spans(std::span<const PiiSpan> model_spans, std::vector<PiiSpan>& spans);

}  // namespace winnow
