#include "text/doc_segments.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <mutex>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/hash.h"
#include "text/icu_words.h"
#include "text/ngram_stats.h"
#include "text/python_text.h"
#include "text/word_tokenizer.h"

namespace winnow {

namespace {

// Open-addressing table from a piece's bytes to its id, reused by each thread. Entries are
// tagged with a generation so starting a new document costs nothing.
class PieceIdTable {
 public:
  void start(size_t pieces) {
    size_t want = 16;
    while (want * 3 < pieces * 4) want <<= 1;  // load factor at most 3/4
    // Grow as needed; give back what a huge document took once documents are small again.
    if (want > slots_.size() || (slots_.size() > (size_t{1} << 20) && want <= (size_t{1} << 16))) {
      slots_.assign(want, Slot{});
      slots_.shrink_to_fit();
      generation_ = 0;
    }
    mask_ = want - 1;
    if (++generation_ == 0) {
      for (auto& s : slots_) s.generation = 0;
      generation_ = 1;
    }
    next_id_ = 0;
  }

  // A piece of at most 8 bytes is its own key (its bytes packed, with its length): equal keys
  // are equal pieces. Longer pieces are keyed by a hash and compared byte for byte.
  static uint64_t key(std::string_view text, const TextPiece& piece) {
    if (piece.bytes > 16) return hash64(text.substr(piece.begin, piece.bytes));
    if (piece.bytes > 8) {
      // 9 to 16 bytes (a long word): its first and last 8 bytes mixed inline rather than a
      // hash library call per word; the key only picks the slot, the bytes are compared.
      uint64_t head, tail;
      std::memcpy(&head, text.data() + piece.begin, 8);
      std::memcpy(&tail, text.data() + piece.begin + piece.bytes - 8, 8);
      return head * 0x9E3779B97F4A7C15ULL ^ std::rotl(tail * 0xC2B2AE3D27D4EB4FULL, 31);
    }
    uint64_t packed = 0;
    if (std::endian::native == std::endian::little && piece.begin + 8 <= text.size()) {
      // One unaligned 8-byte load, masked to the piece (no variable-length memcpy call).
      std::memcpy(&packed, text.data() + piece.begin, 8);
      if (piece.bytes < 8) packed &= (uint64_t{1} << (8 * piece.bytes)) - 1;
    } else {
      std::memcpy(&packed, text.data() + piece.begin, piece.bytes);
    }
    return packed;
  }

  // Starts loading the slot where id(..., key) begins: a long document's table outgrows L1.
  void prefetch(uint64_t key, const TextPiece& piece) const {
    __builtin_prefetch(&slots_[first_slot(key, piece)]);
  }

  uint32_t id(std::string_view text, const TextPiece& piece, uint64_t key) {
    const bool short_piece = piece.bytes <= 8;
    for (size_t i = first_slot(key, piece);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = {key, piece.begin, piece.bytes, next_id_, generation_};
        return next_id_++;
      }
      if (s.hash == key && s.bytes == piece.bytes &&
          (short_piece ||
           text.compare(s.begin, s.bytes, text.substr(piece.begin, piece.bytes)) == 0)) {
        return s.id;
      }
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t begin = 0, bytes = 0, id = 0, generation = 0;
  };
  std::vector<Slot> slots_;
  size_t first_slot(uint64_t key, const TextPiece& piece) const {
    return (((key ^ piece.bytes) * 0x9E3779B97F4A7C15ULL) >> 32) & mask_;
  }
  size_t mask_ = 0;
  uint32_t generation_ = 0;
  uint32_t next_id_ = 0;
};

// Python's whitespace split of `text` into `out`, with code point lengths. Branch-light: each
// 64-byte block becomes a bit mask of its white-space bytes (ASCII by table; of the non-ASCII
// bytes only C2, E1, E2 and E3 can start a space, and only those are decoded), word starts and
// ends are the mask's edges, and a word's code points are its bytes less its continuation bytes
// (counted from a second mask). Word boundaries cost no mispredicted branches per byte.
// bit 0: ASCII space; bit 1: may start a non-ASCII space; bit 2: continuation byte.
const std::array<uint8_t, 256> kClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c : {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20}) t[c] = 1;
  for (int c : {0xC2, 0xE1, 0xE2, 0xE3}) t[c] = 2;
  for (int c = 0x80; c <= 0xBF; ++c) t[c] = 4;
  return t;
}();

// The three masks of a 64-byte block. SSE2 is part of baseline x86-64, so it needs no run-time
// dispatch; other targets take the table.
void classify_block(const unsigned char* p, uint64_t& space, uint64_t& maybe, uint64_t& cont) {
#if defined(__SSE2__)
  const __m128i k80 = _mm_set1_epi8(static_cast<char>(0x80));
  auto in_range = [&](__m128i x, int lo, int hi) {  // lo <= x <= hi, unsigned bytes
    __m128i shifted = _mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8(static_cast<char>(lo))), k80);
    return _mm_cmplt_epi8(shifted, _mm_set1_epi8(static_cast<char>((hi - lo + 1) ^ 0x80)));
  };
  for (int k = 0; k < 4; ++k) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    __m128i sp = _mm_or_si128(in_range(x, 0x09, 0x0D), in_range(x, 0x1C, 0x20));
    __m128i mb = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(static_cast<char>(0xC2))),
                              in_range(x, 0xE1, 0xE3));
    __m128i ct = _mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8(static_cast<char>(0xC0))), k80);
    space |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(sp))) << (16 * k);
    maybe |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(mb))) << (16 * k);
    cont |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(ct))) << (16 * k);
  }
#else
  for (size_t i = 0; i < 64; ++i) {
    uint64_t c = kClass[p[i]];
    space |= (c & 1) << i;
    maybe |= ((c >> 1) & 1) << i;
    cont |= ((c >> 2) & 1) << i;
  }
#endif
}

void split_words(std::string_view text, std::vector<TextPiece>& out) {
  out.clear();
  // Room for a word per 5 bytes up front (prose has one per 6 or so): a long document's words
  // are not copied through the vector's doublings (pages not written are never touched).
  out.reserve(text.size() / 5 + 16);
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const char* end = text.data() + text.size();
  const size_t n = text.size();
  uint64_t carry_space = 0;  // bytes of a multi-byte space that spill into the next block
  bool prev_space = true;    // the text's start behaves like a space before it
  size_t cont_before = 0;    // continuation bytes before the current block
  size_t word_start = 0, word_start_cont = 0;
  for (size_t base = 0; base < n; base += 64) {
    const size_t len = std::min<size_t>(64, n - base);
    uint64_t space = 0, maybe = 0, cont = 0;
    if (len == 64) {
      classify_block(p + base, space, maybe, cont);
    } else {
      for (size_t i = 0; i < len; ++i) {
        uint64_t c = kClass[p[base + i]];
        space |= (c & 1) << i;
        maybe |= ((c >> 1) & 1) << i;
        cont |= ((c >> 2) & 1) << i;
      }
    }
    space |= carry_space;
    carry_space = 0;
    while (maybe) {
      int i = std::countr_zero(maybe);
      maybe &= maybe - 1;
      const char* q = text.data() + base + i;
      const char* start = q;
      if (!is_python_space(decode_utf8(q, end))) continue;
      for (size_t k = 0; k < static_cast<size_t>(q - start); ++k) {
        size_t bit = static_cast<size_t>(i) + k;
        if (bit < 64) {
          space |= 1ULL << bit;
        } else {
          carry_space |= 1ULL << (bit - 64);
        }
      }
    }
    const uint64_t valid = len == 64 ? ~0ULL : (1ULL << len) - 1;
    space &= valid;
    const uint64_t before = (space << 1) | (prev_space ? 1 : 0);
    uint64_t bounds = ((~space & before) | (space & ~before)) & valid;
    const uint64_t starts = ~space & before;
    while (bounds) {
      int i = std::countr_zero(bounds);
      bounds &= bounds - 1;
      size_t pos = base + static_cast<size_t>(i);
      // (A block without continuation bytes, most of them, needs no count.)
      size_t cum = cont ? cont_before + static_cast<size_t>(popcount64(cont & ((1ULL << i) - 1)))
                        : cont_before;
      if ((starts >> i) & 1) {
        word_start = pos;
        word_start_cont = cum;
      } else {
        out.push_back({static_cast<uint32_t>(word_start), static_cast<uint32_t>(pos - word_start),
                       static_cast<uint32_t>((pos - word_start) - (cum - word_start_cont))});
      }
    }
    prev_space = (space >> (len - 1)) & 1;
    cont_before += static_cast<size_t>(popcount64(cont));
  }
  if (n > 0 && !prev_space) {
    out.push_back({static_cast<uint32_t>(word_start), static_cast<uint32_t>(n - word_start),
                   static_cast<uint32_t>((n - word_start) - (cont_before - word_start_cont))});
  }
}

bool is_blank(std::string_view s) {
  // Most lines start with a printable ASCII byte: not blank, no decoding needed.
  if (!s.empty() && static_cast<unsigned char>(s[0]) > 0x20 &&
      static_cast<unsigned char>(s[0]) < 0x80)
    return false;
  return python_strip(s).empty();
}

}  // namespace

void assign_piece_ids(std::string_view text, const std::vector<TextPiece>& pieces,
                      std::vector<uint32_t>& ids) {
  thread_local PieceIdTable table;
  thread_local std::vector<uint64_t> keys;
  table.start(pieces.size());
  ids.resize(pieces.size());
  // Keys first, then the lookups, each fetching the slot of the piece a few ahead.
  keys.resize(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) keys[i] = PieceIdTable::key(text, pieces[i]);
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < std::min(kAhead, pieces.size()); ++i) table.prefetch(keys[i], pieces[i]);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i + kAhead < pieces.size()) table.prefetch(keys[i + kAhead], pieces[i + kAhead]);
    ids[i] = table.id(text, pieces[i], keys[i]);
  }
}

void DocSegments::reset(std::string_view text) {
  text_ = text;
  done_ = 0;
  for (auto& l : word_ladders_) l.forget();
  token_ladder_.forget();
}

const CharCounts& DocSegments::chars() {
  if (!(done_ & kChars)) {
    chars_ = count_char_classes(text_);
    done_ |= kChars;
  }
  return chars_;
}

const std::vector<TextPiece>& DocSegments::words(WordSplit split) {
  const int k = static_cast<int>(split);
  const uint32_t flag = kWords << (8 * k);
  if (!(done_ & flag)) {
    if (split == WordSplit::kIcu) {
      icu_word_split(text_, words_[k]);
    } else {
      split_words(text_, words_[k]);
    }
    done_ |= flag;
  }
  return words_[k];
}

const std::vector<uint32_t>& DocSegments::word_ids(WordSplit split) {
  const int k = static_cast<int>(split);
  const uint32_t flag = kWordIds << (8 * k);
  if (!(done_ & flag)) {
    assign_piece_ids(text_, words(split), word_ids_[k]);
    done_ |= flag;
  }
  return word_ids_[k];
}

NgramLadder& DocSegments::ladder_from(NgramLadder& ladder, const std::vector<uint32_t>& ids,
                                      size_t n) {
  if (!ladder.started() || n < ladder.lo()) ladder.reset(ids, n);
  return ladder;
}

TopNgram DocSegments::top_word_ngram(size_t n, WordSplit split) {
  const auto& ids = word_ids(split);
  return ladder_from(word_ladders_[static_cast<int>(split)], ids, n).top(n);
}

const std::vector<uint8_t>& DocSegments::word_repeat_levels(size_t n, WordSplit split) {
  const auto& ids = word_ids(split);
  return ladder_from(word_ladders_[static_cast<int>(split)], ids, n).levels(n);
}

TopNgram DocSegments::top_token_ngram(size_t n) {
  const auto& ids = token_ids();
  return ladder_from(token_ladder_, ids, n).top(n);
}

const std::vector<uint8_t>& DocSegments::token_repeat_spans(size_t n) {
  const auto& ids = token_ids();
  return ladder_from(token_ladder_, ids, n).repeat_spans(n);
}

namespace {

// Calls on_piece(begin, end) for each piece of `text` between '\n's (text.split("\n")), the
// newlines found 16 bytes at a time: lines are short, and a memchr call per line cost more
// than the scan.
template <typename OnPiece>
void for_each_newline_piece(std::string_view text, OnPiece&& on_piece) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t start = 0, i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    auto mask = static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), newline)));
    while (mask) {
      const size_t at = i + static_cast<size_t>(std::countr_zero(mask));
      on_piece(start, at);
      start = at + 1;
      mask &= mask - 1;
    }
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == '\n') {
      on_piece(start, i);
      start = i + 1;
    }
  }
  on_piece(start, n);
}

}  // namespace

const std::vector<TextPiece>& DocSegments::lines() {
  if (!(done_ & kLines)) {
    lines_.clear();
    lines_.reserve(chars().newlines + 1);  // at most one line per newline, and one more
    // In an all-ASCII text (the common case) a piece's code points are its bytes.
    const bool ascii = chars().chars == text_.size();
    for_each_newline_piece(text_, [&](size_t start, size_t stop) {
      std::string_view line = text_.substr(start, stop - start);
      if (!is_blank(line)) {
        lines_.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(line.size()),
                          static_cast<uint32_t>(ascii ? line.size() : python_len(line))});
      }
    });
    done_ |= kLines;
  }
  return lines_;
}

const std::vector<TextPiece>& DocSegments::paragraphs() {
  if (!(done_ & kParagraphs)) {
    paragraphs_.clear();
    const bool ascii = chars().chars == text_.size();
    size_t start = 0;
    while (true) {
      // find_bytes: "\n\n" by its two bytes at once, not a memchr call per newline.
      size_t sep = find_bytes(text_, "\n\n", start);
      size_t stop = sep == std::string_view::npos ? text_.size() : sep;
      std::string_view para = text_.substr(start, stop - start);
      paragraphs_.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(para.size()),
                             static_cast<uint32_t>(ascii ? para.size() : python_len(para))});
      if (sep == std::string_view::npos) break;
      start = sep + 2;
    }
    done_ |= kParagraphs;
  }
  return paragraphs_;
}

const PieceRepetition& DocSegments::line_repetition() {
  if (!(done_ & kLineRepetition)) {
    line_repetition_ = piece_repetition(text_, lines());
    done_ |= kLineRepetition;
  }
  return line_repetition_;
}

const PieceRepetition& DocSegments::paragraph_repetition() {
  if (!(done_ & kParagraphRepetition)) {
    paragraph_repetition_ = piece_repetition(text_, paragraphs());
    done_ |= kParagraphRepetition;
  }
  return paragraph_repetition_;
}

const std::vector<TextPiece>& DocSegments::tokens() {
  if (!(done_ & kTokens)) {
    word_tokenize(text_, tokens_);
    done_ |= kTokens;
  }
  return tokens_;
}

const std::vector<uint32_t>& DocSegments::token_ids() {
  if (!(done_ & kTokenIds)) {
    assign_piece_ids(text_, tokens(), token_ids_);
    done_ |= kTokenIds;
  }
  return token_ids_;
}

namespace {

class SegmentPool {
 public:
  static SegmentPool& instance() {
    static SegmentPool* pool = new SegmentPool();  // never destroyed: used until exit
    return *pool;
  }
  void take(size_t n, std::vector<std::unique_ptr<DocSegments>>& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    while (n-- > 0 && !free_.empty()) {
      out.push_back(std::move(free_.back()));
      free_.pop_back();
    }
  }
  void give(std::vector<std::unique_ptr<DocSegments>>& docs) {
    for (auto& d : docs) {
      if (d) d->trim();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& d : docs) {
      if (d && free_.size() < kMaxPooled) free_.push_back(std::move(d));
    }
    docs.clear();
  }

 private:
  // One batch's worth; with trim() that bounds the pool to tens of MB (1,024 objects of at most
  // a few 2,048-entry vectors each), typically ~20 MB.
  static constexpr size_t kMaxPooled = 1024;
  std::mutex mutex_;
  std::vector<std::unique_ptr<DocSegments>> free_;
};

template <typename T>
void trim_vector(std::vector<T>& v) {
  if (v.capacity() > (size_t{1} << 11)) std::vector<T>().swap(v);
}

}  // namespace

void DocSegments::trim() {
  for (int k = 0; k < 2; ++k) {
    trim_vector(words_[k]);
    trim_vector(word_ids_[k]);
    word_ladders_[k].trim();
  }
  trim_vector(lines_);
  trim_vector(paragraphs_);
  trim_vector(tokens_);
  trim_vector(token_ids_);
  token_ladder_.trim();
  done_ = 0;
  text_ = {};
}

DocSegmentsCache::~DocSegmentsCache() {
  SegmentPool::instance().give(docs_);
  SegmentPool::instance().give(spare_);
}

DocSegments& DocSegmentsCache::at(const DocBatch& batch, size_t row) {
  if (docs_.size() < batch.size()) {
    docs_.resize(batch.size());
    valid_.resize(batch.size(), 0);
  }
  auto& doc = docs_[row];
  if (!doc) {
    if (spare_.empty()) SegmentPool::instance().take(batch.size(), spare_);
    if (spare_.empty()) {
      doc = std::make_unique<DocSegments>();
    } else {
      doc = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (!valid_[row]) {
    doc->reset(batch.text(row));
    valid_[row] = 1;
  }
  return *doc;
}

void DocSegmentsCache::text_changed(size_t row) {
  if (row < valid_.size()) valid_[row] = 0;
}

DocSegmentsCache& segment_cache(DocBatch& batch) { return batch.cache<DocSegmentsCache>(); }

}  // namespace winnow
