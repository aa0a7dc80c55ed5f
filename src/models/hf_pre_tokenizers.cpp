// The pre-tokenizer steps of a tokenizer.json, as HF runs them (hf_text_pipeline.h lists them).
#include <simdjson.h>
#include <unicode/uscript.h>

#include <algorithm>
#include <functional>

#include "models/hf_text_steps.h"

namespace winnow::hf_text {

namespace {

using hf_chars::decode_at;
using hf_chars::is_whitespace;
using Step = HfTextPipeline::Step;

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
      if (!starts && (prepend == kAlways || (prepend == kFirst && piece.start.at_input))) {
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

// Pre-tokenizers that split on a character test: Digits, Punctuation, CharDelimiterSplit and
// the two halves of BertPreTokenizer.
struct CharSplit final : Step {
  std::function<bool(char32_t)> test;
  Behavior behavior = Behavior::kIsolated;
  CharSplit(std::function<bool(char32_t)> t, Behavior b) : test(std::move(t)), behavior(b) {}
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    thread_local Ranges matches;
    for (const Piece& piece : pieces) {
      find_chars(piece.text, test, matches);
      split_pieces(piece, matches, behavior, false, out);
    }
    pieces = std::move(out);
  }
};

// HF's FixedLength: each piece cut into runs of `length` characters (the last may be shorter).
struct FixedLength final : Step {
  size_t length = 5;
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    for (const Piece& piece : pieces) {
      size_t chunk_start = 0, in_chunk = 0;
      for (size_t i = 0; i < piece.text.size();) {
        size_t bytes;
        decode_at(piece.text, i, bytes);
        i += bytes;
        if (++in_chunk == length || i == piece.text.size()) {
          out.push_back(
              {piece.text.substr(chunk_start, i - chunk_start), piece.start.from(chunk_start)});
          chunk_start = i;
          in_chunk = 0;
        }
      }
    }
    pieces = std::move(out);
  }
};

// HF's UnicodeScripts (SentencePiece's script split): a cut wherever the script changes, with
// hiragana, katakana and ー counted as Han and a space belonging to any script. Quirk kept: the
// spaces that begin a piece come before its first cut and are dropped.
struct UnicodeScripts final : Step {
  static int script_of(char32_t c) {
    if (c == ' ') return -1;  // any
    if (c == 0x30FC) return USCRIPT_HAN;
    // HF's script table is Unicode 9.0's; what it lacks is "any".
    if (!hf_chars::assigned_by(c, hf_chars::kNormalizationUnicode)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int script = uscript_getScript(static_cast<UChar32>(c), &status);
    return script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA ? USCRIPT_HAN : script;
  }
  void pre_tokenize(std::vector<Piece>& pieces) const override {
    std::vector<Piece> out;
    std::vector<size_t> cuts;
    for (const Piece& piece : pieces) {
      cuts.clear();
      int last = -2;  // none yet
      for (size_t i = 0; i < piece.text.size();) {
        size_t length;
        int script = script_of(decode_at(piece.text, i, length));
        if (script != -1 && last != -1 && script != last) cuts.push_back(i);
        if (script != -1) last = script;
        i += length;
      }
      cuts.push_back(piece.text.size());
      for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        if (cuts[k + 1] > cuts[k]) {
          out.push_back(
              {piece.text.substr(cuts[k], cuts[k + 1] - cuts[k]), piece.start.from(cuts[k])});
        }
      }
    }
    pieces = std::move(out);
  }
};

}  // namespace

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
    if (e["behavior"].error()) return Status::error("a Split pre_tokenizer has no behavior");
    WINNOW_RETURN_IF_ERROR(parse_behavior(e, step->behavior));
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
  } else if (type == "Digits") {
    out.push_back(std::make_unique<CharSplit>(
        hf_chars::is_numeric,
        get_bool(e, "individual_digits", false) ? Behavior::kIsolated : Behavior::kContiguous));
  } else if (type == "Punctuation") {
    Behavior behavior;
    WINNOW_RETURN_IF_ERROR(parse_behavior(e, behavior));
    out.push_back(std::make_unique<CharSplit>(hf_chars::is_punctuation, behavior));
  } else if (type == "BertPreTokenizer") {
    // Whitespace removed, then each punctuation character a word of its own.
    out.push_back(std::make_unique<CharSplit>(is_whitespace, Behavior::kRemoved));
    out.push_back(std::make_unique<CharSplit>(hf_chars::is_punctuation, Behavior::kIsolated));
  } else if (type == "FixedLength") {
    auto step = std::make_unique<FixedLength>();
    uint64_t length;
    if (!e["length"].get(length)) step->length = length;
    if (step->length == 0)
      return Status::error("a FixedLength pre_tokenizer needs a length over 0");
    out.push_back(std::move(step));
  } else if (type == "UnicodeScripts") {
    out.push_back(std::make_unique<UnicodeScripts>());
  } else if (type == "CharDelimiterSplit") {
    std::string_view delimiter;
    size_t length = 0;
    char32_t c = 0;
    if (!e["delimiter"].get(delimiter) && !delimiter.empty()) c = decode_at(delimiter, 0, length);
    if (c == 0 || length != delimiter.size()) {
      return Status::error("a CharDelimiterSplit pre_tokenizer needs one delimiter character");
    }
    out.push_back(
        std::make_unique<CharSplit>([c](char32_t x) { return x == c; }, Behavior::kRemoved));
  } else {
    return step_error("pre_tokenizer", type);
  }
  return Status::ok();
}

}  // namespace winnow::hf_text
