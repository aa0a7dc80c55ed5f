#include "text/spoken_english.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "core/ascii.h"
#include "text/spoken_abbreviations.h"
#include "text/spoken_compound.h"
#include "text/spoken_date.h"
#include "text/spoken_number.h"

namespace winnow {

namespace {

// Punctuation NeMo's tokenizer takes apart from a token, at its start and at its end. Not "$",
// "£", "€", "%", "-" or a leading ".": those belong to money, percent, signs and decimals; not
// "*", "&", "+" and the other symbols NeMo reads as words (spoken_abbreviations.h).
constexpr std::array<std::string_view, 13> kLeadPunct = {
    "(", "[", "{", "\"", "'", "!", "?", "\u201c", "\u2018", "\u00ab", "\u00bf", "\u00a1", "\u201e"};
constexpr std::array<std::string_view, 16> kTrailPunct = {
    ".", ",",  ";", ":",      "!",      "?",      ")",      "]",
    "}", "\"", "'", "\u201d", "\u2019", "\u00bb", "\u2026", "\u201c"};

template <size_t N>
size_t punct_at_start(std::string_view s, const std::array<std::string_view, N>& marks) {
  if (s.empty() || is_ascii_alnum(s.front())) return 0;  // most tokens: no mark to compare
  for (std::string_view m : marks) {
    if (s.starts_with(m)) return m.size();
  }
  return 0;
}

template <size_t N>
size_t punct_at_end(std::string_view s, const std::array<std::string_view, N>& marks) {
  if (s.empty() || is_ascii_alnum(s.back())) return 0;
  for (std::string_view m : marks) {
    if (s.size() >= m.size() && s.substr(s.size() - m.size()) == m) return m.size();
  }
  return 0;
}

using Token = SpokenToken;

Token split_token(std::string_view raw) {
  Token t;
  size_t begin = 0, end = raw.size();
  while (begin < end) {
    const size_t n = punct_at_start(raw.substr(begin, end - begin), kLeadPunct);
    if (!n) break;
    begin += n;
  }
  while (end > begin) {
    const size_t n = punct_at_end(raw.substr(begin, end - begin), kTrailPunct);
    if (!n) break;
    end -= n;
  }
  return {raw.substr(0, begin), raw.substr(begin, end - begin), raw.substr(end)};
}

// The token's reading: one number, else a compound of numbers.
std::optional<SpokenNumber> read_core(std::string_view core, std::string_view next) {
  if (std::none_of(core.begin(), core.end(), is_ascii_digit)) return std::nullopt;
  if (auto r = read_spoken_number(core, next)) return r;
  if (auto words = read_spoken_compound(core)) return SpokenNumber{std::move(*words)};
  return std::nullopt;
}

// Python's str.split() white space among ASCII (NeMo's text has been split so): \t to \r, the
// separators \x1c to \x1f, and the space.
bool is_space(char c) {
  return (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f') || c == ' ';
}

// NeMo's whitelist reading of `raw` (spoken_abbreviations.h) with punctuation around it kept:
// the token as it stands, then with its trailing marks taken off one at a time ("etc.," →
// "etcetera.,"), then the same after its leading marks.
bool append_abbreviation(std::string& out, std::string_view raw, std::string_view lead) {
  for (std::string_view start : {raw, raw.substr(lead.size())}) {
    for (std::string_view r = start; !r.empty();) {
      const std::string words = spoken_abbreviation(r);
      if (!words.empty()) {
        out += raw.substr(0, raw.size() - start.size());
        out += words;
        out += start.substr(r.size());
        return true;
      }
      const size_t n = punct_at_end(r, kTrailPunct);
      if (!n) break;
      r.remove_suffix(n);
    }
    if (lead.empty()) break;
  }
  return false;
}

}  // namespace

std::string spoken_english(std::string_view text) {
  std::vector<std::string_view> raw;
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && is_space(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > start) raw.push_back(text.substr(start, i - start));
  }
  std::vector<Token> tokens;
  tokens.reserve(raw.size());
  for (std::string_view r : raw) tokens.push_back(split_token(r));
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!out.empty()) out += ' ';
    const Token& t = tokens[i];
    if (auto date =
            read_spoken_date(std::span(tokens).subspan(i, std::min<size_t>(5, raw.size() - i)))) {
      out += t.lead;
      out += date->words;
      i += date->tokens - 1;
      out += tokens[i].trail;
      continue;
    }
    // The next token joins this one ("5 pm", "$45 billion", "50 %") only with no punctuation
    // between them.
    std::string_view next;
    if (i + 1 < raw.size() && t.trail.empty() && tokens[i + 1].lead.empty())
      next = tokens[i + 1].core;
    if (append_abbreviation(out, raw[i], t.lead)) continue;
    std::optional<SpokenNumber> r = read_core(t.core, next);
    if (!r) {
      out += raw[i];
      continue;
    }
    std::string_view lead = t.lead;
    // "'80s": NeMo's decade takes its apostrophe (a plain "'", which the WER cleaning keeps).
    if (!lead.empty() && lead.back() == '\'' && t.core.size() == 3 && t.core.back() == 's')
      lead.remove_suffix(1);
    out += lead;
    out += r->words;
    if (r->took_next) {
      out += tokens[i + 1].trail;
      ++i;
    } else {
      out += t.trail;
    }
  }
  return out;
}

}  // namespace winnow
