#include "models/subword_models.h"

#include <simdjson.h>
#include <utf8proc.h>

#include <atomic>
#include <cstdio>
#include <queue>
#include <string>
#include <unordered_map>

namespace winnow {

namespace {

struct Hash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
using Vocabulary = std::unordered_map<std::string, int64_t, Hash, std::equal_to<>>;

size_t char_length(std::string_view text, size_t i) {
  auto lead = static_cast<unsigned char>(text[i]);
  size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  return std::min(n, text.size() - i);
}

// The ids of <0x00>..<0xFF> (-1 where missing), for byte_fallback.
std::vector<int64_t> byte_ids(const Vocabulary& vocabulary) {
  std::vector<int64_t> ids(256, -1);
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    auto found = vocabulary.find(std::string_view(name));
    if (found != vocabulary.end()) ids[b] = found->second;
  }
  return ids;
}

class BpeModel final : public SubwordModel {
 public:
  Vocabulary vocabulary;
  // (left id, right id) -> (rank, merged id).
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> merges;
  std::vector<int64_t> bytes;  // byte_fallback ids
  // The ids of the vocabulary's one-character tokens, keyed by their UTF-8 bytes packed into an
  // integer: a word starts as characters, and hashing an integer costs less than a string.
  std::unordered_map<uint32_t, int64_t> characters;
  std::string prefix, suffix;  // continuing_subword_prefix, end_of_word_suffix
  int64_t unk_id = -1;
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
  uint64_t serial = next_serial++;
  static inline std::atomic<uint64_t> next_serial{1};

  bool id_of(std::string_view token, int64_t& id) const override {
    auto found = vocabulary.find(token);
    if (found == vocabulary.end()) return false;
    id = found->second;
    return true;
  }
  size_t vocabulary_size() const override { return vocabulary.size(); }

  static uint32_t pack(std::string_view c) {
    uint32_t key = 0;
    for (char b : c) key = key << 8 | static_cast<unsigned char>(b);
    return key;
  }

  void index_characters() {
    for (const auto& [token, id] : vocabulary) {
      if (!token.empty() && token.size() <= 4 && char_length(token, 0) == token.size()) {
        characters.emplace(pack(token), id);
      }
    }
  }

  void tokenize(std::string_view word, std::vector<int64_t>& ids) const override {
    int64_t id;
    if (ignore_merges && id_of(word, id)) {
      ids.push_back(id);
      return;
    }
    // Per-thread word cache, as HF keeps one (its MAX_LENGTH: words under 256 bytes); cleared
    // when it grows past its cap rather than evicting one by one.
    struct Cache {
      std::unordered_map<std::string, std::vector<int64_t>, Hash, std::equal_to<>> words;
    };
    thread_local std::unordered_map<uint64_t, Cache> caches;
    // The last model's cache, so a run of words skips the lookup by model (map nodes stay put).
    thread_local uint64_t last_serial = 0;
    thread_local Cache* last_cache = nullptr;
    const bool cacheable = word.size() < 256;
    Cache* cache = nullptr;
    if (cacheable) {
      if (last_serial != serial) {
        last_cache = &caches[serial];
        last_serial = serial;
      }
      cache = last_cache;
      auto hit = cache->words.find(word);
      if (hit != cache->words.end()) {
        ids.insert(ids.end(), hit->second.begin(), hit->second.end());
        return;
      }
    }
    size_t first = ids.size();
    merge_word(word, ids);
    if (cacheable) {
      if (cache->words.size() >= 200000) cache->words.clear();
      cache->words.emplace(std::string(word), std::vector<int64_t>(ids.begin() + first, ids.end()));
    }
  }

 private:
  struct Symbol {
    int64_t id;
    int32_t prev, next;
    bool removed;
  };
  struct Merge {
    uint32_t rank;
    int32_t pos;
    uint32_t new_id;
    // The heap's top is the lowest rank, then the leftmost position.
    bool operator<(const Merge& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };

  const std::pair<uint32_t, uint32_t>* find_merge(int64_t left, int64_t right) const {
    auto found = merges.find((static_cast<uint64_t>(left) << 32) | static_cast<uint32_t>(right));
    return found == merges.end() ? nullptr : &found->second;
  }

  void merge_word(std::string_view word, std::vector<int64_t>& out) const {
    thread_local std::vector<Symbol> symbols;
    thread_local std::string piece;
    symbols.clear();
    auto add = [&](int64_t id) {
      int32_t n = static_cast<int32_t>(symbols.size());
      symbols.push_back({id, n - 1, -1, false});
      if (n > 0) symbols[n - 1].next = n;
    };
    bool pending_unk = false;
    for (size_t i = 0; i < word.size();) {
      size_t length = char_length(word, i);
      std::string_view c = word.substr(i, length);
      bool is_first = i == 0;
      i += length;
      bool is_last = i >= word.size();
      std::string_view lookup = c;
      bool found;
      int64_t id = -1;
      if ((!is_first && !prefix.empty()) || (is_last && !suffix.empty())) {
        piece.clear();
        if (!is_first) piece += prefix;
        piece += c;
        if (is_last) piece += suffix;
        lookup = piece;
        found = id_of(lookup, id);
      } else {
        auto hit = characters.find(pack(c));
        found = hit != characters.end();
        if (found) id = hit->second;
      }
      if (found) {
        if (pending_unk) add(unk_id);
        pending_unk = false;
        add(id);
        continue;
      }
      if (byte_fallback) {
        bool all = true;
        for (char b : lookup) all = all && bytes[static_cast<unsigned char>(b)] >= 0;
        if (all) {
          for (char b : lookup) add(bytes[static_cast<unsigned char>(b)]);
          continue;
        }
      }
      if (unk_id >= 0) {
        if (pending_unk && !fuse_unk) add(unk_id);
        pending_unk = true;
      }
    }
    if (pending_unk) add(unk_id);

    thread_local std::priority_queue<Merge> queue;
    queue = {};
    for (size_t k = 0; k + 1 < symbols.size(); ++k) {
      if (auto m = find_merge(symbols[k].id, symbols[k + 1].id)) {
        queue.push({m->first, static_cast<int32_t>(k), m->second});
      }
    }
    while (!queue.empty()) {
      Merge top = queue.top();
      queue.pop();
      Symbol& left = symbols[top.pos];
      if (left.removed || left.next < 0) continue;
      Symbol& right = symbols[left.next];
      // A stale entry: the pair there is no longer the one this merge was queued for.
      auto m = find_merge(left.id, right.id);
      if (m == nullptr || m->second != top.new_id) continue;
      left.id = top.new_id;
      right.removed = true;
      left.next = right.next;
      if (left.next >= 0) symbols[left.next].prev = top.pos;
      if (left.prev >= 0) {
        if (auto p = find_merge(symbols[left.prev].id, left.id)) {
          queue.push({p->first, left.prev, p->second});
        }
      }
      if (left.next >= 0) {
        if (auto n = find_merge(left.id, symbols[left.next].id)) {
          queue.push({n->first, top.pos, n->second});
        }
      }
    }
    for (const Symbol& s : symbols) {
      if (!s.removed) out.push_back(s.id);
    }
  }
};

class UnigramModel final : public SubwordModel {
 public:
  std::vector<std::string> pieces;
  std::vector<double> scores;
  Vocabulary vocabulary;
  // A byte trie of the pieces: (node << 8 | byte) -> child; piece_at[node]: the piece ending
  // there, or -1.
  std::unordered_map<uint64_t, int32_t> children;
  std::vector<int32_t> piece_at = {-1};
  std::vector<int64_t> bytes;
  int64_t unk_id = -1;
  double unk_score = 0;
  bool byte_fallback = false;

  bool id_of(std::string_view token, int64_t& id) const override {
    auto found = vocabulary.find(token);
    if (found == vocabulary.end()) return false;
    id = found->second;
    return true;
  }
  size_t vocabulary_size() const override { return pieces.size(); }

  void insert(std::string_view piece, int32_t id) {
    uint64_t node = 0;
    for (char c : piece) {
      uint64_t key = node << 8 | static_cast<unsigned char>(c);
      auto found = children.find(key);
      if (found == children.end()) {
        found = children.emplace(key, static_cast<int32_t>(piece_at.size())).first;
        piece_at.push_back(-1);
      }
      node = static_cast<uint64_t>(found->second);
    }
    piece_at[node] = id;
  }

  void tokenize(std::string_view word, std::vector<int64_t>& ids) const override {
    struct Node {
      int64_t id = -1;
      double score = 0;
      int64_t start = -1;  // -1: not reached
    };
    const size_t size = word.size();
    thread_local std::vector<Node> best;
    best.assign(size + 1, Node{});
    best[0].start = 0;
    for (size_t start = 0; start < size;) {
      const double here = best[start].score;
      const size_t length = char_length(word, start);
      bool single = false;
      uint64_t node = 0;
      for (size_t end = start; end < size; ++end) {
        auto found = children.find(node << 8 | static_cast<unsigned char>(word[end]));
        if (found == children.end()) break;
        node = static_cast<uint64_t>(found->second);
        int32_t id = piece_at[node];
        if (id < 0) continue;
        Node& target = best[end + 1];
        double candidate = here + scores[id];
        if (target.start < 0 || candidate > target.score) target = {id, candidate, int64_t(start)};
        if (end + 1 - start == length) single = true;
      }
      if (!single) {
        Node& target = best[start + length];
        double candidate = here + unk_score;
        if (target.start < 0 || candidate > target.score) {
          target = {unk_id, candidate, int64_t(start)};
        }
      }
      start += length;
    }
    // Back from the end; consecutive unknowns become one token.
    thread_local std::vector<std::pair<size_t, size_t>> spans;  // reversed
    spans.clear();
    bool previous_unk = false;
    for (size_t end = size; end > 0;) {
      const Node& node = best[end];
      size_t start = static_cast<size_t>(node.start);
      bool unk = node.id == unk_id;
      if (unk && previous_unk) {
        spans.back().first = start;
      } else {
        spans.emplace_back(start, end);
      }
      previous_unk = unk;
      end = start;
    }
    for (auto span = spans.rbegin(); span != spans.rend(); ++span) {
      std::string_view token = word.substr(span->first, span->second - span->first);
      int64_t id;
      if (id_of(token, id)) {
        ids.push_back(id);
        continue;
      }
      if (byte_fallback) {
        bool all = true;
        for (char b : token) all = all && bytes[static_cast<unsigned char>(b)] >= 0;
        if (all) {
          for (char b : token) ids.push_back(bytes[static_cast<unsigned char>(b)]);
          continue;
        }
      }
      ids.push_back(unk_id);
    }
  }
};

}  // namespace

Result<std::unique_ptr<SubwordModel>> parse_bpe_model(const simdjson::dom::element& model) {
  auto bpe = std::make_unique<BpeModel>();
  simdjson::dom::object vocab;
  if (model["vocab"].get(vocab)) return Status::error("the BPE model has no \"vocab\" object");
  bpe->vocabulary.reserve(vocab.size());
  for (auto [piece, id] : vocab) {
    int64_t value;
    if (id.get(value)) {
      return Status::errorf("vocab id of '{}' is not a number", std::string(piece));
    }
    bpe->vocabulary.emplace(std::string(piece), value);
  }
  std::string_view text;
  if (!model["unk_token"].get(text) && !bpe->id_of(text, bpe->unk_id)) {
    return Status::errorf("unk_token '{}' is not in the vocabulary", std::string(text));
  }
  if (!model["continuing_subword_prefix"].get(text)) bpe->prefix = text;
  if (!model["end_of_word_suffix"].get(text)) bpe->suffix = text;
  bool flag;
  if (!model["fuse_unk"].get(flag)) bpe->fuse_unk = flag;
  if (!model["byte_fallback"].get(flag)) bpe->byte_fallback = flag;
  if (!model["ignore_merges"].get(flag)) bpe->ignore_merges = flag;
  simdjson::dom::element dropout;
  double rate;
  if (!model["dropout"].get(dropout) && !dropout.get(rate) && rate > 0) {
    return Status::error("BPE dropout is random; winnow tokenises deterministically");
  }
  bpe->bytes = byte_ids(bpe->vocabulary);
  bpe->index_characters();

  simdjson::dom::array merges;
  if (model["merges"].get(merges)) return Status::error("the BPE model has no \"merges\" list");
  bpe->merges.reserve(merges.size());
  uint32_t rank = 0;
  std::string merged;
  for (simdjson::dom::element merge : merges) {
    std::string_view left, right;
    simdjson::dom::array pair;
    if (!merge.get(pair)) {  // ["a", "b"]
      if (pair.size() != 2 || pair.at(0).get(left) || pair.at(1).get(right)) {
        return Status::errorf("merge {} is not a pair of strings", rank);
      }
    } else if (!merge.get(text)) {  // "a b"
      size_t space = text.find(' ');
      if (space == std::string_view::npos) {
        return Status::errorf("merge {} ('{}') is not two tokens", rank, std::string(text));
      }
      left = text.substr(0, space);
      right = text.substr(space + 1);
    } else {
      return Status::errorf("merge {} is neither a string nor a pair", rank);
    }
    int64_t a, b, c;
    merged.assign(left);
    merged.append(right.substr(std::min(bpe->prefix.size(), right.size())));
    if (!bpe->id_of(left, a) || !bpe->id_of(right, b) || !bpe->id_of(merged, c)) {
      return Status::errorf("merge {} ('{}' '{}') has a token not in the vocabulary", rank,
                            std::string(left), std::string(right));
    }
    bpe->merges[(static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b)] = {
        rank, static_cast<uint32_t>(c)};
    ++rank;
  }
  return std::unique_ptr<SubwordModel>(std::move(bpe));
}

Result<std::unique_ptr<SubwordModel>> parse_unigram_model(const simdjson::dom::element& model) {
  auto unigram = std::make_unique<UnigramModel>();
  simdjson::dom::array vocab;
  if (model["vocab"].get(vocab)) return Status::error("the Unigram model has no \"vocab\" list");
  double min_score = 0;
  for (simdjson::dom::element entry : vocab) {
    std::string_view piece;
    double score;
    if (entry.at(0).get(piece) || entry.at(1).get(score)) {
      return Status::errorf("vocab entry {} is not [piece, score]", unigram->pieces.size());
    }
    int32_t id = static_cast<int32_t>(unigram->pieces.size());
    unigram->pieces.emplace_back(piece);
    unigram->scores.push_back(score);
    unigram->vocabulary.emplace(std::string(piece), id);
    if (!piece.empty()) unigram->insert(piece, id);
    min_score = std::min(min_score, score);
  }
  // HF's K_UNK_PENALTY.
  unigram->unk_score = min_score - 10.0;
  int64_t unk;
  if (!model["unk_id"].get(unk)) {
    if (unk < 0 || static_cast<size_t>(unk) >= unigram->pieces.size()) {
      return Status::errorf("unk_id {} is not in the vocabulary", unk);
    }
    unigram->unk_id = unk;
  } else {
    return Status::error("the Unigram model has no unk_id");
  }
  bool flag;
  if (!model["byte_fallback"].get(flag)) unigram->byte_fallback = flag;
  unigram->bytes = byte_ids(unigram->vocabulary);
  return std::unique_ptr<SubwordModel>(std::move(unigram));
}

}  // namespace winnow
