#pragma once
// FastTextVocabulary: fastText's Dictionary::getLine (a document's word, subword and word-n-gram
// ids), read straight from the text over a compact copy of the vocabulary. libfasttext reads
// through an istream a byte at a time, probes a 30-million-slot table (120 MB) for every token,
// a cache miss each time, builds each character n-gram as a std::string, and in a pruned
// (quantized, .ftz) model looks every n-gram up in a node-based std::unordered_map. Here the
// tables are open-addressed and sized to the vocabulary and the kept n-grams, and n-grams are
// hashed in place. The ids are exactly libfasttext's, in its order (tested against it), so the
// forward pass sums the same rows in the same order.
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
  // Null when the model needs libfasttext's own reading (word n-grams without buckets).
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
  // Dictionary::computeSubwords of "<token>" (an unknown word), pushed through push_hash.
  void add_subwords(std::string_view token, std::vector<int32_t>& ids) const;
  // Dictionary::pushHash: a bucket id as an input row, remapped (or dropped) when pruned.
  void push_hash(int32_t bucket_id, std::vector<int32_t>& ids) const;
  bool read_pruned_buckets(const fasttext::FastText& model);

  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  std::vector<std::string> words_;  // by id: words, then labels
  // Subword models: a known word's rows (its own id, then its n-grams') as the dictionary
  // precomputed them, words_ order, flattened.
  std::vector<int32_t> word_rows_;
  std::vector<uint32_t> word_rows_begin_;  // size words + 1
  int32_t nwords_ = 0;
  int32_t word_ngrams_ = 1;
  int32_t minn_ = 0, maxn_ = 0;
  uint64_t bucket_ = 0;
  // Pruned models (pruneidx_size >= 0): kept bucket -> its row, open-addressed (key -1: empty),
  // behind a bitmap of the kept buckets (lid.176.ftz: 2 million buckets, 256 KB, which stays
  // in cache): most of an unknown word's n-grams were pruned away and cost one bit test.
  int64_t pruned_size_ = -1;
  std::vector<std::pair<int32_t, int32_t>> pruned_;
  uint64_t pruned_mask_ = 0;
  std::vector<uint64_t> kept_buckets_;
  std::string label_prefix_;
};

}  // namespace winnow
