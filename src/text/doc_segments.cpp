#include "text/doc_segments.h"

#include <array>

#include "core/hash.h"
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
    while (want < pieces * 2) want <<= 1;
    if (want > slots_.size()) {
      slots_.assign(want, Slot{});
      generation_ = 0;
    }
    mask_ = want - 1;
    if (++generation_ == 0) {
      for (auto& s : slots_) s.generation = 0;
      generation_ = 1;
    }
    next_id_ = 0;
  }

  uint32_t id(std::string_view text, const TextPiece& piece) {
    std::string_view bytes = text.substr(piece.begin, piece.bytes);
    uint64_t h = hash64(bytes);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = {h, piece.begin, piece.bytes, next_id_, generation_};
        return next_id_++;
      }
      if (s.hash == h && s.bytes == piece.bytes &&
          text.compare(s.begin, s.bytes, bytes) == 0) {
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
  size_t mask_ = 0;
  uint32_t generation_ = 0;
  uint32_t next_id_ = 0;
};

// Python's whitespace split of `text` into `out`, with code point lengths.
void split_words(std::string_view text, std::vector<TextPiece>& out) {
  out.clear();
  const char* begin = text.data();
  const char* end = begin + text.size();
  const char* p = begin;
  const char* word_start = nullptr;
  uint32_t chars = 0;
  while (p < end) {
    const char* here = p;
    uint32_t cp;
    if (static_cast<unsigned char>(*p) < 0x80) {
      cp = static_cast<unsigned char>(*p++);
    } else {
      cp = decode_utf8(p, end);
    }
    if (is_python_space(cp)) {
      if (word_start) {
        out.push_back({static_cast<uint32_t>(word_start - begin),
                       static_cast<uint32_t>(here - word_start), chars});
        word_start = nullptr;
      }
    } else {
      if (!word_start) {
        word_start = here;
        chars = 0;
      }
      ++chars;
    }
  }
  if (word_start) {
    out.push_back({static_cast<uint32_t>(word_start - begin),
                   static_cast<uint32_t>(end - word_start), chars});
  }
}

bool is_blank(std::string_view s) { return python_strip(s).empty(); }

}  // namespace

void assign_piece_ids(std::string_view text, const std::vector<TextPiece>& pieces,
                      std::vector<uint32_t>& ids) {
  thread_local PieceIdTable table;
  table.start(pieces.size());
  ids.resize(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) ids[i] = table.id(text, pieces[i]);
}

void DocSegments::reset(std::string_view text) {
  text_ = text;
  done_ = 0;
}

const CharCounts& DocSegments::chars() {
  if (done_ & kChars) return chars_;
  CharCounts c;
  const char* p = text_.data();
  const char* end = p + text_.size();
  // ASCII classes by table: one lookup per byte on the common path.
  static constexpr uint8_t kAlnum = 1, kDigit = 2, kSpace = 4, kParen = 8, kAlpha = 16,
                           kHash = 32, kNewline = 64;
  static const auto table = [] {
    std::array<uint8_t, 128> t{};
    for (int ch = 0; ch < 128; ++ch) {
      uint8_t f = 0;
      bool alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
      bool digit = ch >= '0' && ch <= '9';
      if (alpha || digit || ch == '\n' || ch == '?' || ch == '!' || ch == ',' || ch == '.')
        f |= kAlnum;
      if (digit) f |= kDigit;
      if (ch == '\t' || ch == '\n' || ch == '\r' || ch == '\b' || ch == ' ') f |= kSpace;
      if (ch == '{' || ch == '}' || ch == '[' || ch == ']' || ch == '(' || ch == ')') f |= kParen;
      if (alpha) f |= kAlpha;
      if (ch == '#') f |= kHash;
      if (ch == '\n') f |= kNewline;
      t[ch] = f;
    }
    return t;
  }();
  uint32_t counts[7] = {0, 0, 0, 0, 0, 0, 0};
  while (p < end) {
    auto b = static_cast<unsigned char>(*p);
    if (b < 0x80) {
      uint8_t f = table[b];
      ++p;
      ++c.chars;
      if (f) {
        counts[0] += f & 1;
        counts[1] += (f >> 1) & 1;
        counts[2] += (f >> 2) & 1;
        counts[3] += (f >> 3) & 1;
        counts[4] += (f >> 4) & 1;
        counts[5] += (f >> 5) & 1;
        counts[6] += (f >> 6) & 1;
      }
      continue;
    }
    uint32_t cp = decode_utf8(p, end);
    ++c.chars;
    if (cp == 0x27E8 || cp == 0x27E9) ++counts[3];  // ⟨ ⟩
    if (is_python_alpha(cp)) ++counts[4];
  }
  c.nemo_alnum = counts[0];
  c.digits = counts[1];
  c.white_space = counts[2];
  c.parentheses = counts[3];
  c.letters = counts[4];
  c.hashes = counts[5];
  c.newlines = counts[6];
  chars_ = c;
  done_ |= kChars;
  return chars_;
}

const std::vector<TextPiece>& DocSegments::words() {
  if (!(done_ & kWords)) {
    split_words(text_, words_);
    done_ |= kWords;
  }
  return words_;
}

const std::vector<uint32_t>& DocSegments::word_ids() {
  if (!(done_ & kWordIds)) {
    assign_piece_ids(text_, words(), word_ids_);
    done_ |= kWordIds;
  }
  return word_ids_;
}

const std::vector<TextPiece>& DocSegments::lines() {
  if (!(done_ & kLines)) {
    lines_.clear();
    size_t start = 0;
    while (true) {
      size_t nl = text_.find('\n', start);
      size_t stop = nl == std::string_view::npos ? text_.size() : nl;
      std::string_view line = text_.substr(start, stop - start);
      if (!is_blank(line)) {
        lines_.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(line.size()),
                          static_cast<uint32_t>(python_len(line))});
      }
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
    done_ |= kLines;
  }
  return lines_;
}

const std::vector<TextPiece>& DocSegments::paragraphs() {
  if (!(done_ & kParagraphs)) {
    paragraphs_.clear();
    size_t start = 0;
    while (true) {
      size_t sep = text_.find("\n\n", start);
      size_t stop = sep == std::string_view::npos ? text_.size() : sep;
      std::string_view para = text_.substr(start, stop - start);
      paragraphs_.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(para.size()),
                             static_cast<uint32_t>(python_len(para))});
      if (sep == std::string_view::npos) break;
      start = sep + 2;
    }
    done_ |= kParagraphs;
  }
  return paragraphs_;
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

DocSegments& DocSegmentsCache::at(const DocBatch& batch, size_t row) {
  if (docs_.size() < batch.size()) {
    docs_.resize(batch.size());
    valid_.resize(batch.size(), 0);
  }
  auto& doc = docs_[row];
  if (!doc) doc = std::make_unique<DocSegments>();
  if (!valid_[row]) {
    doc->reset(batch.text(row));
    valid_[row] = 1;
  }
  return *doc;
}

void DocSegmentsCache::text_changed(size_t row) {
  if (row < valid_.size()) valid_[row] = 0;
}

DocSegmentsCache& segment_cache(DocBatch& batch) {
  auto* cache = dynamic_cast<DocSegmentsCache*>(batch.cache());
  if (!cache) {
    // Another kind of cache (or none): segments replace it; what it held can be recomputed.
    batch.set_cache(std::make_unique<DocSegmentsCache>());
    cache = static_cast<DocSegmentsCache*>(batch.cache());
  }
  return *cache;
}

}  // namespace winnow
