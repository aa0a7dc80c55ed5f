#include "models/fasttext_vocabulary.h"

#include <fasttext/dictionary.h>
#include <fasttext/fasttext.h>

#include <cstring>
#include <sstream>

namespace winnow {

namespace {

// Dictionary::hash: 32-bit FNV-1a over the bytes taken as signed chars.
constexpr uint32_t kFnvBasis = 2166136261u;
inline uint32_t fnv_step(uint32_t h, char c) {
  return (h ^ static_cast<uint32_t>(static_cast<int8_t>(c))) * 16777619u;
}
uint32_t fnv(std::string_view s) {
  uint32_t h = kFnvBasis;
  for (char c : s) h = fnv_step(h, c);
  return h;
}

uint64_t slot_of(int32_t key, uint64_t mask) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(key)) * 0x9E3779B97F4A7C15ULL >> 32) & mask;
}

// Dictionary::readWord's separators; '\n' also ends the line.
bool separator(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f' || c == '\0';
}

}  // namespace

std::unique_ptr<FastTextVocabulary> FastTextVocabulary::build(const fasttext::FastText& model) {
  const fasttext::Args args = model.getArgs();
  auto dictionary = model.getDictionary();
  // fastText divides by the bucket count for subwords and word n-grams (it would crash).
  if ((args.wordNgrams > 1 || args.maxn > 0) && args.bucket <= 0) return nullptr;
  auto vocabulary = std::unique_ptr<FastTextVocabulary>(new FastTextVocabulary());
  vocabulary->nwords_ = dictionary->nwords();
  vocabulary->word_ngrams_ = args.wordNgrams;
  vocabulary->minn_ = args.minn;
  vocabulary->maxn_ = args.maxn;
  vocabulary->bucket_ = static_cast<uint64_t>(args.bucket);
  vocabulary->label_prefix_ = args.label;
  if (!vocabulary->read_pruned_buckets(model)) return nullptr;
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
  if (args.maxn > 0) {
    vocabulary->word_rows_begin_.push_back(0);
    for (int32_t id = 0; id < vocabulary->nwords_; ++id) {
      const std::vector<int32_t>& rows = dictionary->getSubwords(id);
      vocabulary->word_rows_.insert(vocabulary->word_rows_.end(), rows.begin(), rows.end());
      vocabulary->word_rows_begin_.push_back(static_cast<uint32_t>(vocabulary->word_rows_.size()));
    }
  }
  return vocabulary;
}

// The dictionary keeps its pruned-bucket map private; Dictionary::save writes it after the
// entries: int32 size, nwords, nlabels, int64 ntokens, pruneidx_size, then per entry the word,
// a NUL, int64 count and int8 type, then pruneidx_size (bucket, row) pairs of int32. Anything
// else than that layout returns false, and the model keeps libfasttext's own reading.
bool FastTextVocabulary::read_pruned_buckets(const fasttext::FastText& model) {
  std::ostringstream out;
  model.getDictionary()->save(out);
  const std::string bytes = out.str();
  auto read = [&](size_t at, auto& value) {
    if (at + sizeof(value) > bytes.size()) return false;
    std::memcpy(&value, bytes.data() + at, sizeof(value));
    return true;
  };
  int32_t size = 0;
  if (!read(0, size) || !read(20, pruned_size_)) return false;
  size_t at = 28;
  for (int32_t i = 0; i < size; ++i) {
    at = bytes.find('\0', at);
    if (at == std::string::npos) return false;
    at += 1 + sizeof(int64_t) + sizeof(int8_t);
  }
  if (pruned_size_ <= 0) return at == bytes.size();
  if (at + static_cast<size_t>(pruned_size_) * 8 != bytes.size()) return false;
  uint64_t capacity = 16;
  while (capacity < 2 * static_cast<uint64_t>(pruned_size_)) capacity *= 2;
  pruned_.assign(capacity, {-1, 0});
  pruned_mask_ = capacity - 1;
  kept_buckets_.assign((bucket_ + 63) / 64, 0);
  for (int64_t i = 0; i < pruned_size_; ++i, at += 8) {
    int32_t bucket = 0, row = 0;
    read(at, bucket);
    read(at + 4, row);
    if (bucket < 0 || static_cast<uint64_t>(bucket) >= bucket_) return false;
    kept_buckets_[bucket / 64] |= uint64_t{1} << (bucket % 64);
    uint64_t slot = slot_of(bucket, pruned_mask_);
    while (pruned_[slot].first >= 0) slot = (slot + 1) & pruned_mask_;
    pruned_[slot] = {bucket, row};
  }
  return true;
}

void FastTextVocabulary::push_hash(int32_t bucket_id, std::vector<int32_t>& ids) const {
  if (pruned_size_ == 0 || bucket_id < 0) return;
  if (pruned_size_ > 0) {
    if (!((kept_buckets_[bucket_id / 64] >> (bucket_id % 64)) & 1)) return;  // pruned away
    for (uint64_t slot = slot_of(bucket_id, pruned_mask_);; slot = (slot + 1) & pruned_mask_) {
      const auto& [bucket, row] = pruned_[slot];
      if (bucket < 0) return;  // pruned away
      if (bucket == bucket_id) {
        bucket_id = row;
        break;
      }
    }
  }
  ids.push_back(nwords_ + bucket_id);
}

void FastTextVocabulary::add_subwords(std::string_view token, std::vector<int32_t>& ids) const {
  thread_local std::string word;
  word.assign(fasttext::Dictionary::BOW);
  word.append(token);
  word.append(fasttext::Dictionary::EOW);
  const size_t size = word.size();
  for (size_t i = 0; i < size; ++i) {
    if ((word[i] & 0xC0) == 0x80) continue;
    // The n-gram grows one UTF-8 character at a time; FNV-1a runs on with it.
    uint32_t h = kFnvBasis;
    size_t j = i;
    for (int32_t n = 1; j < size && n <= maxn_; ++n) {
      h = fnv_step(h, word[j++]);
      while (j < size && (word[j] & 0xC0) == 0x80) h = fnv_step(h, word[j++]);
      if (n >= minn_ && !(n == 1 && (i == 0 || j == size))) {
        push_hash(static_cast<int32_t>(h % static_cast<uint32_t>(bucket_)), ids);
      }
    }
  }
}

int32_t FastTextVocabulary::find(std::string_view token, uint32_t hash) const {
  for (uint64_t slot = hash & mask_;; slot = (slot + 1) & mask_) {
    const Slot& s = slots_[slot];
    if (s.id < 0) return -1;
    if (s.hash == hash && words_[s.id] == token) return s.id;
  }
}

// Dictionary::getLine's handling of one token (addSubwords, and the hash kept for word n-grams).
void FastTextVocabulary::add_token(std::string_view token, std::vector<int32_t>& ids,
                                   std::vector<int32_t>& hashes) const {
  const uint32_t h = fnv(token);
  const int32_t id = find(token, h);
  const bool label =
      id >= 0 ? id >= nwords_ : token.substr(0, label_prefix_.size()) == label_prefix_;
  if (label) return;  // labels in the text are not features
  if (id >= 0) {
    if (maxn_ > 0) {
      ids.insert(ids.end(), word_rows_.begin() + word_rows_begin_[id],
                 word_rows_.begin() + word_rows_begin_[id + 1]);
    } else {
      ids.push_back(id);
    }
  } else if (token != fasttext::Dictionary::EOS) {
    add_subwords(token, ids);  // unknown words add nothing without subwords (maxn 0)
  }
  hashes.push_back(static_cast<int32_t>(h));
}

void FastTextVocabulary::line_ids(std::string_view text, std::vector<int32_t>& ids) const {
  thread_local std::vector<int32_t> hashes;
  ids.clear();
  hashes.clear();
  size_t start = 0;
  bool ended = false;  // getLine stops at the end-of-sentence token, even one in the text
  for (size_t i = 0; i <= text.size() && !ended; ++i) {
    if (i < text.size() && !separator(text[i])) continue;
    if (i > start) {
      std::string_view token = text.substr(start, i - start);
      add_token(token, ids, hashes);
      ended = token == fasttext::Dictionary::EOS;
    }
    start = i + 1;
  }
  if (!ended) add_token(fasttext::Dictionary::EOS, ids, hashes);
  // Dictionary::addWordNgrams: the int32 hashes widened with their sign, as fastText does.
  for (size_t i = 0; i < hashes.size(); ++i) {
    uint64_t h = static_cast<uint64_t>(static_cast<int64_t>(hashes[i]));
    for (size_t j = i + 1; j < hashes.size() && j < i + static_cast<size_t>(word_ngrams_); ++j) {
      h = h * 116049371 + static_cast<uint64_t>(static_cast<int64_t>(hashes[j]));
      push_hash(static_cast<int32_t>(h % bucket_), ids);
    }
  }
}

}  // namespace winnow
