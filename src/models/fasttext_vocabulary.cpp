#include "models/fasttext_vocabulary.h"

#include <fasttext/dictionary.h>
#include <fasttext/fasttext.h>

namespace winnow {

namespace {

// Dictionary::hash: 32-bit FNV-1a over the bytes taken as signed chars.
uint32_t fnv(std::string_view s) {
  uint32_t h = 2166136261u;
  for (char c : s) {
    h = h ^ static_cast<uint32_t>(static_cast<int8_t>(c));
    h = h * 16777619u;
  }
  return h;
}

// Dictionary::readWord's separators; '\n' also ends the line.
bool separator(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f' || c == '\0';
}

}  // namespace

std::unique_ptr<FastTextVocabulary> FastTextVocabulary::build(const fasttext::FastText& model) {
  const fasttext::Args args = model.getArgs();
  auto dictionary = model.getDictionary();
  // Subword models read n-grams of characters; pruned (quantized) ones remap n-gram ids
  // through a private table. Both keep libfasttext's reading.
  if (args.maxn > 0 || const_cast<fasttext::Dictionary&>(*dictionary).isPruned()) return nullptr;
  if (args.wordNgrams > 1 && args.bucket <= 0) return nullptr;
  auto vocabulary = std::unique_ptr<FastTextVocabulary>(new FastTextVocabulary());
  vocabulary->nwords_ = dictionary->nwords();
  vocabulary->word_ngrams_ = args.wordNgrams;
  vocabulary->bucket_ = static_cast<uint64_t>(args.bucket);
  vocabulary->label_prefix_ = args.label;
  const int32_t size = dictionary->nwords() + dictionary->nlabels();
  uint64_t capacity = 16;
  while (capacity < 2 * static_cast<uint64_t>(size)) capacity *= 2;
  vocabulary->slots_.resize(capacity);
  vocabulary->mask_ = capacity - 1;
  for (int32_t id = 0; id < size; ++id) {
    std::string word = dictionary->getWord(id);
    uint32_t h = fnv(word);
    uint64_t slot = h & vocabulary->mask_;
    while (vocabulary->slots_[slot].id >= 0) slot = (slot + 1) & vocabulary->mask_;
    vocabulary->slots_[slot] = {h, id};
    vocabulary->words_.push_back(std::move(word));
  }
  return vocabulary;
}

int32_t FastTextVocabulary::find(std::string_view token, uint32_t hash) const {
  for (uint64_t slot = hash & mask_;; slot = (slot + 1) & mask_) {
    const Slot& s = slots_[slot];
    if (s.id < 0) return -1;
    if (s.hash == hash && words_[s.id] == token) return s.id;
  }
}

// Dictionary::getLine's handling of one token.
void FastTextVocabulary::add_token(std::string_view token, std::vector<int32_t>& ids,
                                   std::vector<int32_t>& hashes) const {
  const uint32_t h = fnv(token);
  const int32_t id = find(token, h);
  const bool label =
      id >= 0 ? id >= nwords_ : token.substr(0, label_prefix_.size()) == label_prefix_;
  if (label) return;               // labels in the text are not features
  if (id >= 0) ids.push_back(id);  // unknown words add nothing without subwords
  hashes.push_back(static_cast<int32_t>(h));
}

void FastTextVocabulary::line_ids(std::string_view text, std::vector<int32_t>& ids) const {
  thread_local std::vector<int32_t> hashes;
  ids.clear();
  hashes.clear();
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !separator(text[i])) continue;
    if (i > start) add_token(text.substr(start, i - start), ids, hashes);
    start = i + 1;
  }
  add_token(fasttext::Dictionary::EOS, ids, hashes);
  // Dictionary::addWordNgrams: the int32 hashes widened with their sign, as fastText does.
  for (size_t i = 0; i < hashes.size(); ++i) {
    uint64_t h = static_cast<uint64_t>(static_cast<int64_t>(hashes[i]));
    for (size_t j = i + 1; j < hashes.size() && j < i + static_cast<size_t>(word_ngrams_); ++j) {
      h = h * 116049371 + static_cast<uint64_t>(static_cast<int64_t>(hashes[j]));
      ids.push_back(nwords_ + static_cast<int32_t>(h % bucket_));
    }
  }
}

}  // namespace winnow
