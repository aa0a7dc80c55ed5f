#include "text/transcript_errors.h"

#include <utf8proc.h>

#include <algorithm>
#include <vector>

#include "core/utf8.h"
#include "text/python_text.h"
#include "text/spoken_english.h"

namespace winnow {

namespace {

// NeMo's lists (ComputeWERStage.clean_text with retain_pncs=False and its default pnc_chars).
constexpr std::u32string_view kInvalidChars =
    U"/*\":=_-{|}~\u00a8\u00ab\u00b7\u00bb\u00a1\u00bf\u2026\u2027\u2039\u203a\u226a\u226b!:;\u02d0\u2192";
constexpr std::u32string_view kPncChars =
    U"\u060c\u061f.\u3001\uff1f\u00bf!,?\u0964";
constexpr std::u32string_view kRemoved =
    U"`\u00a8\u00b4\u2018\u2019\u201c\u201d`\u02bb\u2018\u2019\u201c-\"\u2018\u201d";

std::u32string decode(std::string_view text) {
  std::u32string out;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) out.push_back(decode_utf8(p, end));
  return out;
}

// " ".join(text.split()): runs of white space made one space, none at the ends.
std::u32string join_words(std::u32string_view text) {
  std::u32string out;
  bool gap = false;
  for (char32_t c : text) {
    if (is_python_space(c)) {
      gap = !out.empty();
      continue;
    }
    if (gap) out.push_back(U' ');
    gap = false;
    out.push_back(c);
  }
  return out;
}

std::u32string remove_markup(std::u32string_view text) {
  std::u32string out(text);
  for (std::u32string_view token : {U"<unk>", U"|", U"\u2047", U"<", U">"}) {
    for (size_t at; (at = out.find(token)) != std::u32string::npos;) out.erase(at, token.size());
  }
  return out;
}

template <class T>
int64_t edit_distance(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<int64_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = int64_t(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int64_t diagonal = row[0];
    row[0] = int64_t(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int64_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::u32string_view> words(std::u32string_view text) {
  std::vector<std::u32string_view> out;
  size_t start = std::u32string_view::npos;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool space = i == text.size() || is_python_space(text[i]);
    if (!space && start == std::u32string_view::npos) start = i;
    if (space && start != std::u32string_view::npos) {
      out.push_back(text.substr(start, i - start));
      start = std::u32string_view::npos;
    }
  }
  return out;
}

}  // namespace

std::u32string clean_transcript(std::string_view text) {
  std::u32string s = join_words(remove_markup(decode(text)));
  for (char32_t& c : s) c = char32_t(utf8proc_tolower(utf8proc_int32_t(c)));
  std::u32string out;
  for (char32_t c : s) {
    if (kRemoved.find(c) != std::u32string_view::npos) continue;
    const bool spaced = kInvalidChars.find(c) != std::u32string_view::npos ||
                        kPncChars.find(c) != std::u32string_view::npos;
    out.push_back(spaced ? U' ' : c);
  }
  return join_words(out);
}

std::u32string clean_spoken_transcript(std::string_view text) {
  // ASCII without NeMo's markup needs no preparing: spoken_english makes its white space runs
  // one space itself.
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return uint8_t(c) < 0x80 && c != '<' && c != '>' && c != '|'; })) {
    return clean_transcript(spoken_english(text));
  }
  const std::u32string prepared = join_words(remove_markup(decode(text)));
  std::string utf8;
  utf8.reserve(prepared.size());
  for (char32_t c : prepared) append_utf8(utf8, uint32_t(c));
  return clean_transcript(spoken_english(utf8));
}

ErrorRate word_errors(std::u32string_view hypothesis, std::u32string_view reference) {
  const auto ref = words(reference);
  return {edit_distance(words(hypothesis), ref), int64_t(ref.size())};
}

ErrorRate char_errors(std::u32string_view hypothesis, std::u32string_view reference) {
  std::vector<char32_t> hyp(hypothesis.begin(), hypothesis.end());
  std::vector<char32_t> ref(reference.begin(), reference.end());
  return {edit_distance(hyp, ref), int64_t(ref.size())};
}

}  // namespace winnow
