#pragma once
// DocSegments: one document's text split the ways the heuristic filters need it, each split
// computed on first use and kept, so a chain of 28 filter stages splits a text once.
//
// The splits follow NeMo Curator (filters.md): words = text.strip().split() (Python
// whitespace), lines = the non-blank pieces of text.split("\n"), paragraphs = every piece of
// text.split("\n\n"). tokens() is datatrove's English word_tokenize, approximated (see
// word_tokenizer.h). Lengths are in code points, as Python's len() counts them.
//
// Per batch, a DocSegmentsCache is one of the DocBatch's derived-data caches; DocBatch::set_text
// tells it to forget a document whose text a stage replaced (C4's line removal).
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"
#include "text/char_classes.h"
#include "text/ngram_stats.h"
#include "text/text_piece.h"

namespace winnow {

// How a text is split into words: Python's white-space split (NeMo's default), or ICU's
// dictionary segmentation (NeMo's jieba / MeCab for Chinese / Japanese; see icu_words.h).
enum class WordSplit : uint8_t { kWhitespace = 0, kIcu = 1 };

class DocSegments {
 public:
  void reset(std::string_view text);
  // Frees oversized buffers before the object is pooled for reuse.
  void trim();

  std::string_view text() const { return text_; }
  std::string_view piece(const TextPiece& p) const { return text_.substr(p.begin, p.bytes); }

  const CharCounts& chars();
  const std::vector<TextPiece>& words(WordSplit split = WordSplit::kWhitespace);
  // Dense ids for words(): equal words (byte for byte) have equal ids. N-gram statistics run
  // on these, so an n-gram is compared as integers, exactly.
  const std::vector<uint32_t>& word_ids(WordSplit split = WordSplit::kWhitespace);
  // N-gram statistics over word_ids() from one NgramLadder (ngram_stats.h) per document: the
  // top n-gram, and the repeat levels covering n (`levels[i] >= n`: the n-gram at i occurred
  // before). NeMo's chain asks top 2-, 3-, 4-grams, then duplicate 5..10-grams: one climb.
  // The ladder restarts only when asked for a size below the one it started at.
  TopNgram top_word_ngram(size_t n, WordSplit split = WordSplit::kWhitespace);
  const std::vector<uint8_t>& word_repeat_levels(size_t n,
                                                 WordSplit split = WordSplit::kWhitespace);
  // The same over token_ids() (datatrove's top n-grams), and the ladder's repeat spans covering
  // n (datatrove's duplicate n-grams skip the n-grams that occur once).
  TopNgram top_token_ngram(size_t n);
  const std::vector<uint8_t>& token_repeat_spans(size_t n);
  const std::vector<TextPiece>& lines();
  const std::vector<TextPiece>& paragraphs();
  // piece_repetition (ngram_stats.h) of lines() and of paragraphs(), computed once: NeMo's
  // chain asks each twice (by count, then by code points).
  const PieceRepetition& line_repetition();
  const PieceRepetition& paragraph_repetition();
  const std::vector<TextPiece>& tokens();
  const std::vector<uint32_t>& token_ids();

  // What has been computed for the current text since reset(): a chain's work follows its
  // verdicts (a document the first filter drops is never split into words), and tests check
  // that through these rather than through timings.
  enum Feature : uint32_t {
    kChars = 1,
    kWords = 2,
    kWordIds = 4,
    kLines = 8,
    kParagraphs = 16,
    kTokens = 32,
    kTokenIds = 64,
    kLineRepetition = 128,
    kParagraphRepetition = 256,
  };
  bool computed(Feature f, WordSplit split = WordSplit::kWhitespace) const {
    const int shift = (f == kWords || f == kWordIds) ? 8 * static_cast<int>(split) : 0;
    return (done_ & (static_cast<uint32_t>(f) << shift)) != 0;
  }
  // Whether the word n-gram ladder has started (a top or duplicate n-gram was asked for).
  bool ngrams_started(WordSplit split = WordSplit::kWhitespace) const {
    return word_ladders_[static_cast<int>(split)].started();
  }

 private:
  // `ladder`, started (again) at n when it has not started or started above n.
  NgramLadder& ladder_from(NgramLadder& ladder, const std::vector<uint32_t>& ids, size_t n);
  std::string_view text_;
  uint32_t done_ = 0;
  CharCounts chars_;
  // Per WordSplit: the words, their ids, their n-gram ladder (done_ bits shifted by 8 for kIcu;
  // a ladder that has started is valid until reset()).
  std::vector<TextPiece> words_[2];
  std::vector<uint32_t> word_ids_[2];
  NgramLadder word_ladders_[2], token_ladder_;
  std::vector<TextPiece> lines_, paragraphs_, tokens_;
  std::vector<uint32_t> token_ids_;
  PieceRepetition line_repetition_, paragraph_repetition_;
};

// Assigns dense ids to pieces of `text` (first occurrence order); exact (bytes are compared).
void assign_piece_ids(std::string_view text, const std::vector<TextPiece>& pieces,
                      std::vector<uint32_t>& ids);

// Segment objects come from a process-wide pool and go back to it when the batch is freed, so
// their vectors' capacity is reused batch after batch instead of being allocated (and
// page-faulted) again for every document.
class DocSegmentsCache final : public DocBatchCache {
 public:
  ~DocSegmentsCache() override;
  DocSegments& at(const DocBatch& batch, size_t row);
  void text_changed(size_t row) override;

 private:
  std::vector<std::unique_ptr<DocSegments>> docs_;
  std::vector<std::unique_ptr<DocSegments>> spare_;
  std::vector<uint8_t> valid_;
};

// The batch's segment cache, created on first use. A stage
// takes it once per batch and then calls at(batch, row) per document.
DocSegmentsCache& segment_cache(DocBatch& batch);
inline DocSegments& doc_segments(DocBatch& batch, size_t row) {
  return segment_cache(batch).at(batch, row);
}

}  // namespace winnow
