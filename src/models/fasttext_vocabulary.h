#pragma once
// FastTextVocabulary: fastText's Dictionary::getLine (a document's word and word-n-gram ids)
// for models without subwords or pruning, read straight from the text over a compact copy of
// the vocabulary. libfasttext probes a 30-million-slot table (120 MB) for every token, a cache
// miss each time; this table is sized to the vocabulary. The ids are exactly libfasttext's
// (tested against it).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fasttext {
class FastText;
}

namespace winnow {

class FastTextVocabulary {
 public:
  // Null when the model needs libfasttext's own reading (subwords, or a pruned dictionary).
  static std::unique_ptr<FastTextVocabulary> build(const fasttext::FastText& model);

  // The ids of `text` read as one line: newlines are spaces, and the end-of-sentence token ends
  // it, as predict() in Python sees `text.replace("\n", " ")`.
  void line_ids(std::string_view text, std::vector<int32_t>& ids) const;

 private:
  struct Slot {
    uint32_t hash = 0;
    int32_t id = -1;  // -1: empty
  };
  int32_t find(std::string_view token, uint32_t hash) const;
  void add_token(std::string_view token, std::vector<int32_t>& ids,
                 std::vector<int32_t>& hashes) const;

  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  std::vector<std::string> words_;  // by id: words, then labels
  int32_t nwords_ = 0;
  int32_t word_ngrams_ = 1;
  uint64_t bucket_ = 0;
  std::string label_prefix_;
};

}  // namespace winnow
