#include "io/arxiv_latex.h"

#include <re2/re2.h>

#include <optional>
#include <unordered_map>
#include <utility>

namespace winnow {

namespace {

// Python's \s for str patterns: the characters str.isspace() accepts.
#define PY_SPACE                                                                         \
  "[\\t\\n\\x{0b}\\f\\r \\x{1c}-\\x{1f}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}" \
  "\\x{2029}\\x{202f}\\x{205f}\\x{3000}]"

// One sectioning command, as NeMo writes it: name, optional *, optional [..], then {..}.
#define SECTION(name) "\\\\" name "\\b\\*?(?:\\[.*?\\])?\\{.*?\\}"

const RE2& section_start() {
  static const RE2 re("(?s)(" SECTION("chapter") "|" SECTION("part") "|" SECTION(
      "section") "|" SECTION("subsection") "|" SECTION("subsubsection") "|" SECTION("paragraph")
                          SECTION("subparagraph") ")");
  return re;
}

const RE2& comment_line() {
  static const RE2 re("(?m)^%.*\\n?");
  return re;
}

const RE2& inline_comment() {
  static const RE2 re("(?m)[^\\\\]%.+$");
  return re;
}

const RE2& back_matter() {
  static const RE2 re(
      "(?s)(\\\\appendix|\\\\begin\\{references\\}|\\\\begin\\{REFERENCES\\}|"
      "\\\\begin\\{thebibliography\\}|\\\\bibliography\\{.*\\})");
  return re;
}

const RE2& newcommand_macro() {
  static const RE2 re("(?m)\\\\newcommand\\b\\*?\\{(\\\\[a-zA-Z0-9]+?)\\}\\{(.*?)\\}$");
  return re;
}

const RE2& def_macro() {
  static const RE2 re("(?m)\\\\def" PY_SPACE "*(\\\\[a-zA-Z0-9]+?)" PY_SPACE "*\\{(.*?)\\}$");
  return re;
}

// The offset where `re` first matches in `text`, or npos.
size_t first_match(const RE2& re, std::string_view text) {
  // The whole match only (no groups): RE2 finds its bounds with its DFAs alone.
  re2::StringPiece whole;
  if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED,
                &whole, 1)) {
    return std::string_view::npos;
  }
  return static_cast<size_t>(whole.data() - text.data());
}

// The paper's macros in order of first definition, each with its last value.
class MacroTable {
 public:
  void collect(std::string_view file) {
    for (const RE2* re : {&newcommand_macro(), &def_macro()}) {
      re2::StringPiece rest(file.data(), file.size()), name, value;
      while (RE2::FindAndConsume(&rest, *re, &name, &value)) {
        set(std::string_view(name.data(), name.size()), std::string_view(value.data(), value.size()));
      }
    }
  }
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }

  // Python's unicode-escape writes any other character as \x.., \u.. or \U.., which re.sub's
  // template parser rejects: NeMo's extractor then fails on the whole paper.
  bool usable_by_nemo() const {
    for (const auto& [name, value] : entries_) {
      for (char ch : value) {
        auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x7f) return false;
      }
    }
    return true;
  }

 private:
  void set(std::string_view name, std::string_view value) {
    auto [at, added] = index_.try_emplace(std::string(name), entries_.size());
    if (added) {
      entries_.emplace_back(std::string(name), std::string(value));
    } else {
      entries_[at->second].second.assign(value);
    }
  }
  std::vector<std::pair<std::string, std::string>> entries_;
  std::unordered_map<std::string, size_t> index_;
};

bool ascii_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// `\name` followed by a character other than an ASCII letter or digit becomes value and that
// character; scanning goes on after the character (as re.sub's does, so in `\a\a ` only the
// first is expanded: the second's backslash went with the first match).
void expand_macro(std::string& text, const std::string& name, const std::string& value) {
  std::string out;
  size_t copied = 0, at = 0;
  while ((at = text.find(name, at)) != std::string::npos) {
    size_t after = at + name.size();
    if (after >= text.size() || ascii_alnum(text[after])) {
      ++at;
      continue;
    }
    out.append(text, copied, at - copied);
    out += value;
    out.push_back(text[after]);
    copied = at = after + 1;
  }
  if (copied == 0) return;
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

// One file's text from its first sectioning command (`from_section`) on.
std::string clean_file(std::string_view from_section, const MacroTable& macros) {
  std::string text(from_section);
  RE2::GlobalReplace(&text, comment_line(), "");
  RE2::GlobalReplace(&text, inline_comment(), "");
  size_t end = first_match(back_matter(), text);
  if (end != std::string::npos) text.resize(end);
  for (const auto& [name, value] : macros.entries()) expand_macro(text, name, value);
  return text;
}

}  // namespace

ArxivText arxiv_paper_text(const std::vector<std::string>& files) {
  MacroTable macros;
  for (const std::string& file : files) macros.collect(file);
  const bool usable = macros.usable_by_nemo();
  ArxivText result;
  for (size_t i = 0; i < files.size(); ++i) {
    if (i > 0) result.text.push_back('\n');  // a file with no section still adds its "\n"
    size_t start = first_match(section_start(), files[i]);
    if (start == std::string_view::npos) continue;
    // NeMo's macro loop, where its exception comes from, runs only for a file with a section.
    if (!usable) return {ArxivTextOutcome::kMacroValue, {}};
    result.text += clean_file(std::string_view(files[i]).substr(start), macros);
  }
  if (result.text.empty()) result.outcome = ArxivTextOutcome::kNoSection;
  return result;
}

std::string arxiv_id_from_name(std::string_view stem) {
  size_t digits = stem.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-");
  if (digits == std::string_view::npos || digits == stem.size()) return std::string(stem);
  if (stem.find_first_not_of("0123456789.", digits) != std::string_view::npos) {
    return std::string(stem);
  }
  if (digits == 0) return std::string(stem);
  return std::string(stem.substr(0, digits)) + "/" + std::string(stem.substr(digits));
}

}  // namespace winnow
