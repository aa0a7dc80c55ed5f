#include "models/hf_text_pipeline.h"

#include <simdjson.h>
#include <unicode/brkiter.h>
#include <unicode/regex.h>
#include <unicode/utext.h>
#include <utf8proc.h>

#include <atomic>
#include <cstdlib>
#include <unordered_map>

namespace winnow {

namespace {

struct Piece {
  std::string text;
  bool at_start;  // begins the input text
};

// Rust's char::is_whitespace (Unicode White_Space).
bool is_whitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// The code point at `i` of valid UTF-8 and its length.
char32_t decode_at(std::string_view text, size_t i, size_t& length) {
  utf8proc_int32_t c = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data()) + i,
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &c);
  length = n > 0 ? static_cast<size_t>(n) : 1;
  return n > 0 ? static_cast<char32_t>(c) : 0xFFFD;
}

void append_utf8(std::string& out, char32_t c) {
  utf8proc_uint8_t buffer[4];
  utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buffer);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(n));
}

using Ranges = std::vector<std::pair<size_t, size_t>>;

size_t code_points(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// An Oniguruma pattern compiled by ICU (see the header for the one rewrite).
class Regex {
 public:
  static Result<std::unique_ptr<Regex>> compile(std::string_view onig) {
    std::string pattern;
    for (size_t i = 0; i < onig.size(); ++i) {
      if (onig[i] == '\\' && i + 1 < onig.size()) {
        char next = onig[++i];
        if (next == 's') {
          pattern += "\\p{White_Space}";
        } else if (next == 'S') {
          pattern += "\\P{White_Space}";
        } else {
          pattern += '\\';
          pattern += next;
        }
      } else {
        pattern += onig[i];
      }
    }
    UErrorCode status = U_ZERO_ERROR;
    UParseError where;
    auto regex = std::make_unique<Regex>();
    regex->pattern_.reset(
        icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(pattern), 0, where, status));
    if (U_FAILURE(status)) {
      return Status::errorf("regex '{}' does not compile ({})", std::string(onig),
                            u_errorName(status));
    }
    return regex;
  }

  // The byte ranges of the non-overlapping matches in `text` (valid UTF-8), left to right.
  void find_all(std::string_view text, Ranges& out) const {
    out.clear();
    if (text.empty()) return;
    // One matcher per thread and pattern: a matcher is not thread-safe, and making one per call
    // costs more than the matching of a short text.
    thread_local std::unordered_map<uint64_t, std::unique_ptr<icu::RegexMatcher>> matchers;
    UErrorCode status = U_ZERO_ERROR;
    auto& matcher = matchers[serial_];
    if (!matcher) matcher.reset(pattern_->matcher(status));
    UText input = UTEXT_INITIALIZER;
    utext_openUTF8(&input, text.data(), static_cast<int64_t>(text.size()), &status);
    matcher->reset(&input);
    while (matcher->find(status) && U_SUCCESS(status)) {
      // Native indices of a UTF-8 UText are byte offsets.
      int64_t start = matcher->start64(status), end = matcher->end64(status);
      if (end <= start) break;  // the patterns in use never match empty text
      out.emplace_back(static_cast<size_t>(start), static_cast<size_t>(end));
    }
    matcher->reset(icu::UnicodeString());
    utext_close(&input);
  }

  Regex() : serial_(next_serial_++) {}

 private:
  std::unique_ptr<icu::RegexPattern> pattern_;
  uint64_t serial_;
  static inline std::atomic<uint64_t> next_serial_{1};
};

void find_literal(std::string_view text, std::string_view literal, Ranges& out) {
  out.clear();
  if (literal.empty()) return;
  for (size_t at = text.find(literal); at != std::string_view::npos;
       at = text.find(literal, at + literal.size())) {
    out.emplace_back(at, at + literal.size());
  }
}

enum class Behavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// HF's NormalizedString::split: the text cut at `matches` (or, inverted, at what lies between
// them), the matches themselves handled per `behavior`, empty pieces dropped.
void split_pieces(const Piece& piece, const Ranges& matches, Behavior behavior, bool invert,
                  std::vector<Piece>& out) {
  struct Part {
    size_t start, end;
    bool is_match;
  };
  std::vector<Part> parts;
  size_t last = 0;
  for (const auto& [start, end] : matches) {
    if (start > last) parts.push_back({last, start, invert});
    parts.push_back({start, end, !invert});
    last = end;
  }
  if (last < piece.text.size()) parts.push_back({last, piece.text.size(), invert});

  std::vector<std::pair<size_t, size_t>> kept;
  switch (behavior) {
    case Behavior::kRemoved:
      for (const Part& p : parts) {
        if (!p.is_match) kept.emplace_back(p.start, p.end);
      }
      break;
    case Behavior::kIsolated:
      for (const Part& p : parts) kept.emplace_back(p.start, p.end);
      break;
    case Behavior::kMergedWithPrevious: {
      bool previous_match = false;
      for (const Part& p : parts) {
        if (p.is_match && !previous_match && !kept.empty()) {
          kept.back().second = p.end;
        } else {
          kept.emplace_back(p.start, p.end);
        }
        previous_match = p.is_match;
      }
      break;
    }
    case Behavior::kMergedWithNext: {
      bool previous_match = false;
      for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
        if (p->is_match && !previous_match && !kept.empty()) {
          kept.back().first = p->start;
        } else {
          kept.emplace_back(p->start, p->end);
        }
        previous_match = p->is_match;
      }
      std::reverse(kept.begin(), kept.end());
      break;
    }
    case Behavior::kContiguous: {
      bool previous_match = false;
      for (const Part& p : parts) {
        if (p.is_match == previous_match && !kept.empty()) {
          kept.back().second = p.end;
        } else {
          kept.emplace_back(p.start, p.end);
        }
        previous_match = p.is_match;
      }
      break;
    }
  }
  for (const auto& [start, end] : kept) {
    if (end > start) {
      out.push_back({piece.text.substr(start, end - start), piece.at_start && start == 0});
    }
  }
}

// GPT-2's byte-to-character table: printable Latin-1 bytes stand for themselves, the others for
// U+0100 onwards, in byte order.
const std::vector<std::string>& byte_characters() {
  static const std::vector<std::string> table = [] {
    std::vector<std::string> t(256);
    int n = 0;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      append_utf8(t[b], printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + n++));
    }
    return t;
  }();
  return table;
}

Status step_error(std::string_view kind, std::string_view type) {
  return Status::errorf("{} '{}' is not supported", kind, std::string(type));
}

bool get_bool(const simdjson::dom::element& e, const char* key, bool fallback) {
  bool value;
  return e[key].get(value) ? fallback : value;
}

// The pattern of a Split or Replace: {"String": s} or {"Regex": r}.
struct Pattern {
  std::string literal;
  std::unique_ptr<Regex> regex;
  void find(std::string_view text, Ranges& out) const {
    if (regex) {
      regex->find_all(text, out);
    } else {
      find_literal(text, literal, out);
    }
  }
};

Result<Pattern> parse_pattern(const simdjson::dom::element& e) {
  Pattern pattern;
  std::string_view text;
  if (!e["pattern"]["String"].get(text)) {
    pattern.literal = text;
  } else if (!e["pattern"]["Regex"].get(text)) {
    auto regex = Regex::compile(text);
    if (!regex.is_ok()) return regex.status();
    pattern.regex = std::move(regex).value();
  } else {
    return Status::error("a pattern must be {\"String\": ...} or {\"Regex\": ...}");
  }
  return pattern;
}

}  // namespace

struct HfTextPipeline::Step {
  virtual ~Step() = default;
  // `at_start`: the text's first character is the input's first; a step that removes leading
  // characters clears it (HF tracks offsets into the original, and Metaspace's "first" checks
  // the first one is 0).
  virtual void normalize(std::string&, bool&) const {}
  virtual void pre_tokenize(std::vector<Piece>&) const {}
};

namespace {

using Step = HfTextPipeline::Step;

struct UnicodeForm final : Step {
  int options;
  explicit UnicodeForm(int o) : options(o | UTF8PROC_STABLE) {}
  void normalize(std::string& text, bool&) const override {
    utf8proc_uint8_t* out = nullptr;
    utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                      static_cast<utf8proc_ssize_t>(text.size()), &out,
                                      static_cast<utf8proc_option_t>(options));
    if (n >= 0) text.assign(reinterpret_cast<const char*>(out), static_cast<size_t>(n));
    std::free(out);
  }
};

struct Replace final : Step {
  Pattern pattern;
  std::string content;
  void normalize(std::string& text, bool& at_start) const override {
    thread_local Ranges matches;
    pattern.find(text, matches);
    if (matches.empty()) return;
    // HF counts the characters a replacement removes from the front of it: one at the start
    // that shrinks the text leaves it no longer starting at offset 0 (checked against HF).
    if (matches[0].first == 0 &&
        code_points(content) < code_points(std::string_view(text).substr(0, matches[0].second))) {
      at_start = false;
    }
    std::string out;
    size_t last = 0;
    for (const auto& [start, end] : matches) {
      out.append(text, last, start - last);
      out += content;
      last = end;
    }
    out.append(text, last);
    text = std::move(out);
  }
};

struct Prepend final : Step {
  std::string prefix;
  void normalize(std::string& text, bool&) const override {
    if (!text.empty()) text.insert(0, prefix);
  }
};

struct Lowercase final : Step {
  void normalize(std::string& text, bool&) const override {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
      size_t length;
      char32_t c = decode_at(text, i, length);
      i += length;
      // Rust's char::to_lowercase: the simple mapping, but İ becomes i + combining dot above.
      if (c == 0x130) {
        out += "i\xcc\x87";
        continue;
      }
      append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
    text = std::move(out);
  }
};

struct Strip final : Step {
  bool left, right;
  void normalize(std::string& text, bool& at_start) const override {
    size_t start = 0, end = text.size();
    while (left && start < end) {
      size_t length;
      if (!is_whitespace(decode_at(text, start, length))) break;
      start += length;
    }
    while (right && end > start) {
      size_t back = end - 1;
      while (back > start && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80) --back;
      size_t length;
      if (!is_whitespace(decode_at(text, back, length))) break;
      end = back;
    }
    if (start > 0) at_start = false;
    text = text.substr(start, end - start);
  }
};

struct Split final : Step {
  Pattern pattern;
  Behavior behavior = Behavior::kIsolated;
  bool invert = false;
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    thread_local Ranges matches;
    for (const Piece& piece : pieces) {
      pattern.find(piece.text, matches);
      split_pieces(piece, matches, behavior, invert, out);
    }
    pieces = std::move(out);
  }
};

struct ByteLevel final : Step {
  bool add_prefix_space = true;
  std::unique_ptr<Regex> regex;  // GPT-2's, when use_regex
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> split;
    thread_local Ranges matches;
    for (Piece& piece : pieces) {
      if (add_prefix_space && (piece.text.empty() || piece.text[0] != ' ')) {
        piece.text.insert(0, " ");
      }
      if (regex) {
        regex->find_all(piece.text, matches);
        split_pieces(piece, matches, Behavior::kIsolated, false, split);
      } else {
        split.push_back(std::move(piece));
      }
    }
    const auto& table = byte_characters();
    for (Piece& piece : split) {
      std::string mapped;
      mapped.reserve(piece.text.size() * 2);
      for (char c : piece.text) mapped += table[static_cast<unsigned char>(c)];
      piece.text = std::move(mapped);
    }
    pieces = std::move(split);
  }
};

struct Metaspace final : Step {
  std::string replacement = "\xe2\x96\x81";  // ▁
  enum { kAlways, kFirst, kNever } prepend = kAlways;
  bool split = true;
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    Ranges matches;
    for (Piece& piece : pieces) {
      std::string text;
      for (char c : piece.text) {
        if (c == ' ') {
          text += replacement;
        } else {
          text += c;
        }
      }
      bool starts = text.compare(0, replacement.size(), replacement) == 0;
      if (!starts && (prepend == kAlways || (prepend == kFirst && piece.at_start))) {
        text.insert(0, replacement);
      }
      piece.text = std::move(text);
      if (split) {
        find_literal(piece.text, replacement, matches);
        split_pieces(piece, matches, Behavior::kMergedWithNext, false, out);
      } else {
        out.push_back(std::move(piece));
      }
    }
    pieces = std::move(out);
  }
};

// Whitespace (\w+|[^\w\s]+, the matches kept) and WhitespaceSplit (cut at whitespace).
struct RegexKeep final : Step {
  std::unique_ptr<Regex> regex;
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    thread_local Ranges matches;
    for (const Piece& piece : pieces) {
      regex->find_all(piece.text, matches);
      split_pieces(piece, matches, Behavior::kRemoved, true, out);
    }
    pieces = std::move(out);
  }
};

// SentencePiece's precompiled normalisation map (nmt_nfkc and the like), as tokenizer.json files
// converted from SentencePiece models carry it (DeBERTa-v3, XLM-R, T5, ALBERT...): a Darts
// double-array trie over UTF-8 bytes whose values index NUL-terminated replacements. It is
// applied as HF's spm_precompiled applies it, quirks included: per extended grapheme cluster
// (ICU's), the whole cluster is replaced when it is under 6 bytes and the trie matches a prefix
// of it (the shortest), else each character is looked up on its own.
struct Precompiled final : Step {
  std::vector<uint32_t> units;
  std::string replacements;

  static bool base64(std::string_view in, std::string& out) {
    uint32_t buffer = 0;
    int bits = 0;
    for (char c : in) {
      int v = c >= 'A' && c <= 'Z'   ? c - 'A'
              : c >= 'a' && c <= 'z' ? c - 'a' + 26
              : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+'             ? 62
              : c == '/'             ? 63
              : c == '='             ? -2
                                     : -1;
      if (v == -2) break;
      if (v < 0) return false;
      buffer = buffer << 6 | static_cast<uint32_t>(v);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += static_cast<char>((buffer >> bits) & 0xFF);
      }
    }
    return true;
  }

  Status load(std::string_view encoded) {
    std::string blob;
    if (!base64(encoded, blob) || blob.size() < 4) {
      return Status::error("Precompiled: precompiled_charsmap is not base64 of a charsmap");
    }
    uint32_t trie_bytes = static_cast<uint8_t>(blob[0]) | static_cast<uint8_t>(blob[1]) << 8 |
                          static_cast<uint8_t>(blob[2]) << 16 |
                          static_cast<uint32_t>(static_cast<uint8_t>(blob[3])) << 24;
    if (trie_bytes % 4 != 0 || 4 + size_t(trie_bytes) > blob.size() || trie_bytes == 0) {
      return Status::error("Precompiled: the charsmap's trie size is wrong");
    }
    units.resize(trie_bytes / 4);
    for (size_t i = 0; i < units.size(); ++i) {
      const auto* b = reinterpret_cast<const uint8_t*>(blob.data()) + 4 + 4 * i;
      units[i] = b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24;
    }
    replacements = blob.substr(4 + trie_bytes);
    return Status::ok();
  }

  // The replacement of the shortest prefix of `chunk` in the trie, if any.
  bool transform(std::string_view chunk, std::string_view& out) const {
    auto offset = [](uint32_t u) -> size_t { return (u >> 10) << ((u & (1u << 9)) >> 6); };
    size_t pos = offset(units[0]);
    for (char ch : chunk) {
      auto c = static_cast<unsigned char>(ch);
      if (c == 0) break;
      pos ^= c;
      if (pos >= units.size()) return false;
      uint32_t unit = units[pos];
      if ((unit & ((1u << 31) | 0xFF)) != c) return false;
      pos ^= offset(unit);
      if (pos >= units.size()) return false;
      if ((unit >> 8) & 1) {
        size_t at = units[pos] & ((1u << 31) - 1);
        if (at >= replacements.size()) return false;
        size_t end = replacements.find('\0', at);
        out = std::string_view(replacements)
                  .substr(at, (end == std::string::npos ? replacements.size() : end) - at);
        return true;
      }
    }
    return false;
  }

  void normalize(std::string& text, bool&) const override {
    if (text.empty()) return;
    thread_local std::unique_ptr<icu::BreakIterator> graphemes;
    UErrorCode status = U_ZERO_ERROR;
    if (!graphemes) {
      graphemes.reset(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
      if (U_FAILURE(status)) return;
    }
    UText input = UTEXT_INITIALIZER;
    utext_openUTF8(&input, text.data(), static_cast<int64_t>(text.size()), &status);
    graphemes->setText(&input, status);
    std::string out;
    out.reserve(text.size());
    std::string_view all = text, replacement;
    // Native indices of a UTF-8 UText are byte offsets.
    for (int32_t start = graphemes->first(), end = graphemes->next();
         end != icu::BreakIterator::DONE; start = end, end = graphemes->next()) {
      std::string_view grapheme = all.substr(start, end - start);
      if (grapheme.size() < 6 && transform(grapheme, replacement)) {
        out += replacement;
        continue;
      }
      for (size_t i = 0; i < grapheme.size();) {
        size_t length;
        decode_at(grapheme, i, length);
        std::string_view part = grapheme.substr(i, length);
        out += transform(part, replacement) ? replacement : part;
        i += length;
      }
    }
    graphemes->setText(icu::UnicodeString());
    utext_close(&input);
    text = std::move(out);
  }
};

Status parse_normalizer(const simdjson::dom::element& e, std::vector<std::unique_ptr<Step>>& out) {
  std::string_view type;
  if (e["type"].get(type)) return Status::error("a normalizer has no type");
  if (type == "Sequence") {
    simdjson::dom::array steps;
    if (e["normalizers"].get(steps)) return Status::error("a Sequence normalizer has no list");
    for (simdjson::dom::element step : steps) {
      WINNOW_RETURN_IF_ERROR(parse_normalizer(step, out));
    }
  } else if (type == "NFC") {
    out.push_back(std::make_unique<UnicodeForm>(UTF8PROC_COMPOSE));
  } else if (type == "NFD") {
    out.push_back(std::make_unique<UnicodeForm>(UTF8PROC_DECOMPOSE));
  } else if (type == "NFKC") {
    out.push_back(std::make_unique<UnicodeForm>(UTF8PROC_COMPOSE | UTF8PROC_COMPAT));
  } else if (type == "NFKD") {
    out.push_back(std::make_unique<UnicodeForm>(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT));
  } else if (type == "Replace") {
    auto step = std::make_unique<Replace>();
    auto pattern = parse_pattern(e);
    if (!pattern.is_ok()) return pattern.status();
    step->pattern = std::move(pattern).value();
    std::string_view content;
    if (e["content"].get(content)) return Status::error("a Replace normalizer has no content");
    step->content = content;
    out.push_back(std::move(step));
  } else if (type == "Prepend") {
    auto step = std::make_unique<Prepend>();
    std::string_view prefix;
    if (e["prepend"].get(prefix)) return Status::error("a Prepend normalizer has no prepend");
    step->prefix = prefix;
    out.push_back(std::move(step));
  } else if (type == "Lowercase") {
    out.push_back(std::make_unique<Lowercase>());
  } else if (type == "Precompiled") {
    std::string_view charsmap;
    if (e["precompiled_charsmap"].get(charsmap)) {
      return Status::error("a Precompiled normalizer has no precompiled_charsmap");
    }
    auto step = std::make_unique<Precompiled>();
    WINNOW_RETURN_IF_ERROR(step->load(charsmap));
    out.push_back(std::move(step));
  } else if (type == "Strip") {
    auto step = std::make_unique<Strip>();
    step->left = get_bool(e, "strip_left", true);
    step->right = get_bool(e, "strip_right", true);
    out.push_back(std::move(step));
  } else {
    return step_error("normalizer", type);
  }
  return Status::ok();
}

Status parse_pre_tokenizer(const simdjson::dom::element& e,
                           std::vector<std::unique_ptr<Step>>& out) {
  std::string_view type;
  if (e["type"].get(type)) return Status::error("a pre_tokenizer has no type");
  if (type == "Sequence") {
    simdjson::dom::array steps;
    if (e["pretokenizers"].get(steps)) return Status::error("a Sequence pre_tokenizer has no list");
    for (simdjson::dom::element step : steps) {
      WINNOW_RETURN_IF_ERROR(parse_pre_tokenizer(step, out));
    }
  } else if (type == "Split") {
    auto step = std::make_unique<Split>();
    auto pattern = parse_pattern(e);
    if (!pattern.is_ok()) return pattern.status();
    step->pattern = std::move(pattern).value();
    std::string_view behavior;
    if (e["behavior"].get(behavior)) return Status::error("a Split pre_tokenizer has no behavior");
    if (behavior == "Removed") {
      step->behavior = Behavior::kRemoved;
    } else if (behavior == "Isolated") {
      step->behavior = Behavior::kIsolated;
    } else if (behavior == "MergedWithPrevious") {
      step->behavior = Behavior::kMergedWithPrevious;
    } else if (behavior == "MergedWithNext") {
      step->behavior = Behavior::kMergedWithNext;
    } else if (behavior == "Contiguous") {
      step->behavior = Behavior::kContiguous;
    } else {
      return step_error("Split behavior", behavior);
    }
    step->invert = get_bool(e, "invert", false);
    out.push_back(std::move(step));
  } else if (type == "ByteLevel") {
    auto step = std::make_unique<ByteLevel>();
    step->add_prefix_space = get_bool(e, "add_prefix_space", true);
    if (get_bool(e, "use_regex", true)) {
      auto regex = Regex::compile(
          R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)");
      if (!regex.is_ok()) return regex.status();
      step->regex = std::move(regex).value();
    }
    out.push_back(std::move(step));
  } else if (type == "Metaspace") {
    auto step = std::make_unique<Metaspace>();
    std::string_view text;
    if (!e["replacement"].get(text)) step->replacement = text;
    if (!e["prepend_scheme"].get(text)) {
      if (text == "always") {
        step->prepend = Metaspace::kAlways;
      } else if (text == "first") {
        step->prepend = Metaspace::kFirst;
      } else if (text == "never") {
        step->prepend = Metaspace::kNever;
      } else {
        return step_error("Metaspace prepend_scheme", text);
      }
    } else {
      step->prepend =
          get_bool(e, "add_prefix_space", true) ? Metaspace::kAlways : Metaspace::kNever;
    }
    step->split = get_bool(e, "split", true);
    out.push_back(std::move(step));
  } else if (type == "Whitespace" || type == "WhitespaceSplit") {
    auto step = std::make_unique<RegexKeep>();
    auto regex = Regex::compile(type == "Whitespace" ? R"(\w+|[^\w\s]+)" : R"(\S+)");
    if (!regex.is_ok()) return regex.status();
    step->regex = std::move(regex).value();
    out.push_back(std::move(step));
  } else {
    return step_error("pre_tokenizer", type);
  }
  return Status::ok();
}

}  // namespace

HfTextPipeline::HfTextPipeline() = default;
HfTextPipeline::~HfTextPipeline() = default;
HfTextPipeline::HfTextPipeline(HfTextPipeline&&) noexcept = default;
HfTextPipeline& HfTextPipeline::operator=(HfTextPipeline&&) noexcept = default;

Status HfTextPipeline::parse(const simdjson::dom::element* normalizer,
                             const simdjson::dom::element* pre_tokenizer) {
  if (normalizer != nullptr && !normalizer->is_null()) {
    WINNOW_RETURN_IF_ERROR(parse_normalizer(*normalizer, normalizers_));
  }
  if (pre_tokenizer != nullptr && !pre_tokenizer->is_null()) {
    WINNOW_RETURN_IF_ERROR(parse_pre_tokenizer(*pre_tokenizer, pre_tokenizers_));
  }
  return Status::ok();
}

bool HfTextPipeline::has_normalizer() const { return !normalizers_.empty(); }

void HfTextPipeline::normalize(std::string& text, bool& at_start) const {
  for (const auto& step : normalizers_) step->normalize(text, at_start);
}

void HfTextPipeline::pre_tokenize(std::string_view text, bool at_start,
                                  std::vector<std::string>& words) const {
  std::vector<Piece> pieces;
  pieces.push_back({std::string(text), at_start});
  for (const auto& step : pre_tokenizers_) step->pre_tokenize(pieces);
  for (Piece& piece : pieces) words.push_back(std::move(piece.text));
}

}  // namespace winnow
