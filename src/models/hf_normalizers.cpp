// The normalizer steps of a tokenizer.json, as HF runs them (hf_text_pipeline.h lists them).
#include <simdjson.h>
#include <unicode/brkiter.h>
#include <unicode/utext.h>
#include <utf8proc.h>

#include <cstdlib>

#include "models/hf_text_steps.h"

namespace winnow::hf_text {

namespace {

using hf_chars::append_utf8;
using hf_chars::decode_at;
using hf_chars::is_whitespace;
using Step = HfTextPipeline::Step;

// NFC/NFD/NFKC/NFKD as HF's Unicode 9.0 tables have them: a character assigned since has no
// decomposition there and combines with nothing (a starter), so the text is normalised in runs
// between such characters, which stay as they are.
struct UnicodeForm final : Step {
  int options;
  explicit UnicodeForm(int o) : options(o | UTF8PROC_STABLE) {}
  void append_normalized(std::string_view run, std::string& out) const {
    if (run.empty()) return;
    utf8proc_uint8_t* mapped = nullptr;
    utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(run.data()),
                                      static_cast<utf8proc_ssize_t>(run.size()), &mapped,
                                      static_cast<utf8proc_option_t>(options));
    if (n >= 0) {
      out.append(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n));
    } else {
      out.append(run);
    }
    std::free(mapped);
  }
  void normalize(std::string& text, TextStart&) const override {
    std::string out;
    out.reserve(text.size());
    std::string_view all = text;
    size_t run = 0;
    for (size_t i = 0; i < text.size();) {
      if (static_cast<unsigned char>(text[i]) < 0x80) {
        ++i;
        continue;
      }
      size_t length;
      char32_t c = decode_at(text, i, length);
      if (!hf_chars::assigned_by(c, hf_chars::kNormalizationUnicode)) {
        append_normalized(all.substr(run, i - run), out);
        out.append(all.substr(i, length));
        run = i + length;
      }
      i += length;
    }
    append_normalized(all.substr(run), out);
    text = std::move(out);
  }
};

struct Replace final : Step {
  Pattern pattern;
  std::string content;
  void normalize(std::string& text, TextStart& start) const override {
    thread_local Ranges matches;
    pattern.find(text, matches);
    if (matches.empty()) return;
    // HF counts the characters a replacement removes from the front of it: one at the start
    // that shrinks the text leaves it no longer starting at offset 0 (checked against HF).
    if (matches[0].first == 0 &&
        code_points(content) < code_points(std::string_view(text).substr(0, matches[0].second))) {
      start = {false, 0};
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
  void normalize(std::string& text, TextStart& start) const override {
    if (text.empty()) return;
    text.insert(0, prefix);
    if (start.at_input) start.inserted += prefix.size();
  }
};

struct Lowercase final : Step {
  void normalize(std::string& text, TextStart&) const override {
    thread_local std::u32string lowered;
    lowered.clear();
    for (size_t i = 0; i < text.size();) {
      size_t length;
      hf_chars::append_lowercase(lowered, decode_at(text, i, length));
      i += length;
    }
    text = hf_chars::to_utf8(lowered);
  }
};

struct Strip final : Step {
  bool left, right;
  void normalize(std::string& text, TextStart& text_start) const override {
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
    // Stripping only what was inserted leaves the input's first character first.
    text_start = text_start.from(start);
    text = text.substr(start, end - start);
  }
};

// Normalizers that drop some characters and replace others one for one (Nmt, StripAccents). A
// dropped first character leaves the text no longer starting at the input's offset 0.
struct CharFilter : Step {
  // False to drop `c`; else `c` may be replaced.
  virtual bool keep(char32_t& c) const = 0;
  void normalize(std::string& text, TextStart& start) const override {
    std::string out;
    out.reserve(text.size());
    size_t inserted = 0;  // bytes kept of those inserted before the input's first character
    for (size_t i = 0; i < text.size();) {
      size_t length;
      char32_t c = decode_at(text, i, length);
      if (keep(c)) {
        append_utf8(out, c);
        if (i < start.inserted) inserted = out.size();
      } else if (i == start.inserted) {
        start.at_input = false;
      }
      i += length;
    }
    start.inserted = start.at_input ? inserted : 0;
    text = std::move(out);
  }
};

// SentencePiece's NMT normalisation as HF's Nmt normalizer has it: ASCII and C1 controls
// dropped (not NUL, tab, newline, form feed or return); those four, odd spaces, zero-width
// characters, the BOM, ▁ and U+FFFD become a space.
struct Nmt final : CharFilter {
  bool keep(char32_t& c) const override {
    if ((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F ||
        c == 0x8F || c == 0x9F) {
      return false;
    }
    if (c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x1680 ||
        (c >= 0x200B && c <= 0x200F) || c == 0x2028 || c == 0x2029 || c == 0x2581 || c == 0xFEFF ||
        c == 0xFFFD) {
      c = ' ';
    }
    return true;
  }
};

// Every combining mark (M*) dropped; after NFD or NFKD, the accents.
struct StripAccents final : CharFilter {
  bool keep(char32_t& c) const override { return !hf_chars::is_mark(c); }
};

struct BertNormalizer final : Step {
  hf_chars::BertNormalizerOptions options;
  void normalize(std::string& text, TextStart& start) const override {
    thread_local std::u32string normalized;
    auto first = hf_chars::bert_normalize(text, options, normalized);
    // (After a Prepend the first character here is the prefix's, and the count is kept.)
    if (start.at_input && start.inserted == 0) {
      if (first == hf_chars::FirstCharacter::kDropped) start = {false, 0};
      if (first == hf_chars::FirstCharacter::kSpaced) start.inserted = 1;
    }
    text = hf_chars::to_utf8(normalized);
  }
};

// Each byte of the text as GPT-2's character for it (the ByteLevel pre-tokenizer's mapping,
// without its splitting).
struct ByteLevelNormalizer final : Step {
  void normalize(std::string& text, TextStart&) const override {
    const auto& table = byte_characters();
    std::string out;
    out.reserve(text.size() * 2);
    for (char c : text) out += table[static_cast<unsigned char>(c)];
    text = std::move(out);
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

  void normalize(std::string& text, TextStart&) const override {
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

}  // namespace

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
  } else if (type == "Nmt") {
    out.push_back(std::make_unique<Nmt>());
  } else if (type == "StripAccents") {
    out.push_back(std::make_unique<StripAccents>());
  } else if (type == "ByteLevel") {
    out.push_back(std::make_unique<ByteLevelNormalizer>());
  } else if (type == "BertNormalizer") {
    auto step = std::make_unique<BertNormalizer>();
    auto& o = step->options;
    o.clean_text = get_bool(e, "clean_text", true);
    o.handle_chinese_chars = get_bool(e, "handle_chinese_chars", true);
    o.lowercase = get_bool(e, "lowercase", true);
    // strip_accents: null (or absent) follows lowercase.
    o.strip_accents = get_bool(e, "strip_accents", o.lowercase);
    out.push_back(std::move(step));
  } else {
    return step_error("normalizer", type);
  }
  return Status::ok();
}

}  // namespace winnow::hf_text
