#pragma once
// The parts the tokenizer.json pipeline steps share (models/ only): the pieces a pre-tokenizer
// cuts, HF's split behaviours, Oniguruma patterns run by ICU, GPT-2's byte characters, the
// Step interface and the parsers of the normalizer and pre-tokenizer steps
// (hf_normalizers.cpp, hf_pre_tokenizers.cpp).
#include <unicode/uversion.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "models/hf_char_classes.h"
#include "models/hf_text_pipeline.h"

U_NAMESPACE_BEGIN
class RegexPattern;
U_NAMESPACE_END
namespace simdjson::dom {
class element;
}

namespace winnow {

namespace hf_text {

struct Piece {
  std::string text;
  TextStart start;
};

using Ranges = std::vector<std::pair<size_t, size_t>>;

size_t code_points(std::string_view text);

// An Oniguruma pattern compiled by ICU (see hf_text_pipeline.h for the one rewrite).
class Regex {
 public:
  static Result<std::unique_ptr<Regex>> compile(std::string_view onig);
  // The byte ranges of the non-overlapping matches in `text` (valid UTF-8), left to right.
  void find_all(std::string_view text, Ranges& out) const;

  Regex();
  ~Regex();

 private:
  std::unique_ptr<icu::RegexPattern> pattern_;
  uint64_t serial_;
};

void find_literal(std::string_view text, std::string_view literal, Ranges& out);

// The matches of a character test, as HF splits on one: each character that passes is a match
// of its own (Contiguous then joins neighbours).
template <typename Test>
void find_chars(std::string_view text, const Test& test, Ranges& out) {
  out.clear();
  for (size_t i = 0; i < text.size();) {
    size_t length;
    char32_t c = hf_chars::decode_at(text, i, length);
    if (test(c)) out.emplace_back(i, i + length);
    i += length;
  }
}

enum class Behavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// HF's NormalizedString::split: the text cut at `matches` (or, inverted, at what lies between
// them), the matches themselves handled per `behavior`, empty pieces dropped.
void split_pieces(const Piece& piece, const Ranges& matches, Behavior behavior, bool invert,
                  std::vector<Piece>& out);

// GPT-2's byte-to-character table: printable Latin-1 bytes stand for themselves, the others for
// U+0100 onwards, in byte order.
const std::vector<std::string>& byte_characters();

Status step_error(std::string_view kind, std::string_view type);
bool get_bool(const simdjson::dom::element& e, const char* key, bool fallback);

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
Result<Pattern> parse_pattern(const simdjson::dom::element& e);
// A split behavior ("Isolated" when the step has none, as HF's Punctuation defaults).
Status parse_behavior(const simdjson::dom::element& e, Behavior& behavior);

}  // namespace hf_text

struct HfTextPipeline::Step {
  virtual ~Step() = default;
  // A step that drops the input's first character, or puts characters before it, says so in
  // `start` (HF tracks offsets into the original, and Metaspace's "first" checks for 0). The
  // count of inserted bytes is not followed through steps that change the length of what was
  // inserted (none of the files seen does that).
  virtual void normalize(std::string&, TextStart&) const {}
  virtual void pre_tokenize(std::vector<hf_text::Piece>&) const {}
};

namespace hf_text {

// The steps of a tokenizer.json "normalizer" / "pre_tokenizer" (a Sequence flattened), appended
// to `out`; an unsupported one is an error that names it.
Status parse_normalizer(const simdjson::dom::element& e,
                        std::vector<std::unique_ptr<HfTextPipeline::Step>>& out);
Status parse_pre_tokenizer(const simdjson::dom::element& e,
                           std::vector<std::unique_ptr<HfTextPipeline::Step>>& out);

}  // namespace hf_text

}  // namespace winnow
