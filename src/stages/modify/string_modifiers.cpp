// NeMo Curator's string modifiers (nemo_curator/stages/text/modifiers/string/), each with
// NeMo's rule and parameters, on UTF-8 with Python's str semantics (text/python_text.h):
//   - line_remover: the lines of text.split("\n") equal to one of `patterns` go (whole-line,
//     exact match: "\r", leading and trailing spaces count), the rest are joined by "\n";
//   - markdown_remover: per line, in this order, re.sub of \*\*(.*?)\*\*, \*(.*?)\*, _(.*?)_
//     and \[.*?\]\((.*?)\) by the group (a link keeps its URL, not its label);
//   - newline_normalizer: runs of three or more "\n" become "\n\n", then runs of three or more
//     "\r\n" become "\r\n\r\n";
//   - quotation_remover: a text that starts and ends with '"', whose stripped length is more
//     than 2, loses both quotes unless it has a "\n" and its first line ends with '"';
//   - url_remover: re.sub(r"https?://\S+|www\.\S+", "", flags=IGNORECASE): the URL and every
//     non-space character after it go, the spaces around it stay.
// The delimiters are ASCII, so they are matched on bytes; \S is str.isspace's complement on
// code points.
#include <set>

#include "core/ascii.h"
#include "stages/modify/text_modifier.h"
#include "text/python_text.h"

namespace winnow {

namespace {

class LineRemover final : public TextModifier {
 public:
  explicit LineRemover(const std::vector<std::string>& patterns)
      : patterns_(patterns.begin(), patterns.end()) {}

  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    out.clear();
    bool removed = false, first = true;
    size_t begin = 0;
    while (true) {
      size_t end = text.find('\n', begin);
      std::string_view line =
          text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
      if (patterns_.count(line)) {
        removed = true;
      } else {
        if (!first) out += '\n';
        out += line;
        first = false;
      }
      if (end == std::string_view::npos) break;
      begin = end + 1;
    }
    return {removed};
  }

 private:
  std::set<std::string, std::less<>> patterns_;
};

// re.sub(D(.*?)D, r"\1", line) on every line, for a delimiter D of '*', '_' or "**": the
// leftmost D that has another D after it on its line pairs with the nearest one. When the
// first D left on a line has none, no later D has either, so the rest of the line is kept.
bool strip_delimited(std::string_view text, std::string_view delim, std::string& out) {
  out.clear();
  bool changed = false;
  size_t i = 0;
  while (i < text.size()) {
    size_t line_end = text.find('\n', i);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(0, line_end);
    while (true) {
      size_t open = line.find(delim, i);
      size_t close = open == std::string_view::npos ? open : line.find(delim, open + delim.size());
      if (close == std::string_view::npos) break;
      out.append(text, i, open - i);
      out.append(text, open + delim.size(), close - open - delim.size());
      i = close + delim.size();
      changed = true;
    }
    out.append(text, i, line_end - i);
    if (line_end < text.size()) out += '\n';
    i = line_end + 1;
  }
  return changed;
}

// re.sub(r"\[.*?\]\((.*?)\)", r"\1", line): from the leftmost '[', the first "](" after it and
// the first ')' after that; the link becomes the text between "](" and ')'. As above, when the
// first '[' left has no such tail, no later one has.
bool strip_links(std::string_view text, std::string& out) {
  out.clear();
  bool changed = false;
  size_t i = 0;
  while (i < text.size()) {
    size_t line_end = text.find('\n', i);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(0, line_end);
    while (true) {
      size_t open = line.find('[', i);
      if (open == std::string_view::npos) break;
      size_t middle = line.find("](", open + 1);
      if (middle == std::string_view::npos) break;
      size_t close = line.find(')', middle + 2);
      if (close == std::string_view::npos) break;
      out.append(text, i, open - i);
      out.append(text, middle + 2, close - middle - 2);
      i = close + 1;
      changed = true;
    }
    out.append(text, i, line_end - i);
    if (line_end < text.size()) out += '\n';
    i = line_end + 1;
  }
  return changed;
}

class MarkdownRemover final : public TextModifier {
 public:
  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    // Each pass reads the previous one's result, as NeMo's four re.sub calls do.
    std::string scratch;
    std::string_view current = text;
    bool changed = false;
    auto pass = [&](bool did) {
      if (!did) return;
      changed = true;
      out.swap(scratch);
      current = scratch;
    };
    pass(strip_delimited(current, "**", out));
    pass(strip_delimited(current, "*", out));
    pass(strip_delimited(current, "_", out));
    pass(strip_links(current, out));
    if (changed) out.assign(current);
    return {changed};
  }
};

// re.sub("(" + unit + "){3,}", unit + unit, text).
bool collapse_runs(std::string_view text, std::string_view unit, std::string& out) {
  out.clear();
  bool changed = false;
  size_t i = 0;
  while (i < text.size()) {
    size_t at = text.find(unit, i);
    if (at == std::string_view::npos) break;
    size_t end = at;
    size_t repeats = 0;
    while (text.substr(end, unit.size()) == unit) {
      end += unit.size();
      ++repeats;
    }
    out.append(text, i, at - i);
    if (repeats >= 3) {
      out += unit;
      out += unit;
      changed = true;
    } else {
      out.append(text, at, end - at);
    }
    i = end;
  }
  out.append(text, i, std::string_view::npos);
  return changed;
}

class NewlineNormalizer final : public TextModifier {
 public:
  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    std::string scratch;
    bool lf = collapse_runs(text, "\n", scratch);
    std::string_view current = lf ? std::string_view(scratch) : text;
    bool crlf = collapse_runs(current, "\r\n", out);
    if (!crlf && lf) out.swap(scratch);
    return {lf || crlf};
  }
};

class QuotationRemover final : public TextModifier {
 public:
  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') return {};
    // The text starts and ends with '"', so stripping it changes nothing.
    if (python_len(text) <= 2) return {};
    size_t newline = text.find('\n');
    if (newline != std::string_view::npos && text[newline - 1] == '"') return {};
    out.assign(text.substr(1, text.size() - 2));
    return {true};
  }
};

// "http", "https" or "www." at `p` (case-insensitive; Python's IGNORECASE also lets 's' match
// U+017F LATIN SMALL LETTER LONG S), then "://" for the first two: the length of that prefix,
// or 0.
size_t url_prefix(std::string_view s, size_t p) {
  auto ci = [&](size_t at, std::string_view word) {
    if (s.size() - at < word.size()) return false;
    for (size_t k = 0; k < word.size(); ++k) {
      if (ascii_lower(s[at + k]) != word[k]) return false;
    }
    return true;
  };
  if (ci(p, "www.")) return 4;
  if (!ci(p, "http")) return 0;
  size_t at = p + 4;
  if (at < s.size() && ascii_lower(s[at]) == 's') {
    at += 1;
  } else if (s.substr(at, 2) == "\xC5\xBF") {
    at += 2;
  }
  // (Backtracking over the optional 's' cannot help: "://" never starts with one.)
  if (s.substr(at, 3) != "://") return 0;
  return at + 3 - p;
}

class UrlRemover final : public TextModifier {
 public:
  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    out.clear();
    bool changed = false;
    size_t copied = 0;
    const char* data = text.data();
    const char* end = data + text.size();
    size_t i = 0;
    while (i < text.size()) {
      char c = text[i];
      size_t prefix = (c == 'h' || c == 'H' || c == 'w' || c == 'W') ? url_prefix(text, i) : 0;
      if (prefix) {
        // \S+: at least one non-space code point after the prefix.
        const char* p = data + i + prefix;
        const char* q = p;
        while (q < end) {
          const char* next = q;
          if (is_python_space(decode_utf8(next, end))) break;
          q = next;
        }
        if (q > p) {
          out.append(text, copied, i - copied);
          i = copied = static_cast<size_t>(q - data);
          changed = true;
          continue;
        }
      }
      ++i;
    }
    if (!changed) return {};
    out.append(text, copied, std::string_view::npos);
    return {true};
  }
};

}  // namespace

bool remove_markdown(std::string_view text, std::string& out) {
  return MarkdownRemover().rewrite(text, out).changed;
}

bool remove_quotation(std::string_view text, std::string& out) {
  return QuotationRemover().rewrite(text, out).changed;
}

StageSpec line_remover_spec() {
  return modifier_spec(
      "line_remover",
      "NeMo LineRemover: removes the lines (`text.split(\"\\n\")`) equal to one of the "
      "patterns, whole line and exact.",
      {{"patterns", ParamType::kStringList, "", "the lines to remove", true}},
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<TextModifier>> {
        return std::unique_ptr<TextModifier>(new LineRemover(p.get_string_list("patterns")));
      });
}

StageSpec markdown_remover_spec() {
  return fixed_modifier_spec<MarkdownRemover>(
      "markdown_remover",
      "NeMo MarkdownRemover: per line, `**bold**`, `*italic*` and `_underline_` become their "
      "text and `[label](url)` its url.");
}

StageSpec newline_normalizer_spec() {
  return fixed_modifier_spec<NewlineNormalizer>(
      "newline_normalizer",
      "NeMo NewlineNormalizer: three or more newlines become two (`\\n` runs, then `\\r\\n` "
      "runs).");
}

StageSpec quotation_remover_spec() {
  return fixed_modifier_spec<QuotationRemover>(
      "quotation_remover",
      "NeMo QuotationRemover: removes the double quotes around a whole text, unless its first "
      "line ends in one.");
}

StageSpec url_remover_spec() {
  return fixed_modifier_spec<UrlRemover>(
      "url_remover",
      "NeMo UrlRemover: removes http://, https:// and www. URLs up to the next white space.");
}

}  // namespace winnow
