#include "text/text_chunker.h"

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "core/utf8.h"
#include "text/unicode_space.h"

namespace winnow {

namespace {

enum class Level { kParagraph, kSentence, kWord, kCodePoint };

struct Size {
  uint64_t chars = 0;
  uint64_t words = 0;
};

Size measure(std::string_view text) {
  Size size;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    size_t space = unicode_space_length(text, i);
    size_t step = space;
    if (space == 0) {
      if (!in_word) ++size.words;
      in_word = true;
      auto c = static_cast<unsigned char>(text[i]);
      step = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    } else {
      in_word = false;
    }
    ++size.chars;
    i += std::min(step, text.size() - i);
  }
  return size;
}

class Chunker {
 public:
  Chunker(const ChunkLimits& limits, std::vector<std::string_view>& out)
      : limits_(limits), out_(out) {}

  void split(std::string_view span, Level level) {
    std::vector<std::string_view> units;
    cut(span, level, units);
    const char* begin = span.data();
    const char* end = begin;
    Size current;
    for (std::string_view unit : units) {
      Size size = measure(unit);
      if (over(size)) {
        flush(begin, end);
        // A single code point never exceeds a limit of at least one.
        if (level != Level::kCodePoint) split(unit, static_cast<Level>(static_cast<int>(level) + 1));
        begin = end = unit.data() + unit.size();
        current = {};
        continue;
      }
      if (over({current.chars + size.chars, current.words + size.words})) {
        flush(begin, end);
        begin = unit.data();
        current = {};
      }
      end = unit.data() + unit.size();
      current.chars += size.chars;
      current.words += size.words;
    }
    flush(begin, end);
  }

 private:
  bool over(const Size& size) const {
    return (limits_.max_chars && size.chars > limits_.max_chars) ||
           (limits_.max_words && size.words > limits_.max_words);
  }

  void flush(const char* begin, const char* end) {
    if (end > begin) out_.emplace_back(begin, static_cast<size_t>(end - begin));
  }

  // Cuts `span` into units that tile it, each ending after the white space that follows it.
  static void cut(std::string_view span, Level level, std::vector<std::string_view>& units) {
    switch (level) {
      case Level::kParagraph:
        return cut_paragraphs(span, units);
      case Level::kSentence:
        return cut_sentences(span, units);
      case Level::kWord:
        return cut_words(span, units);
      case Level::kCodePoint:
        return cut_code_points(span, units);
    }
  }

  // A paragraph ends after a run of white space holding at least two line breaks.
  static void cut_paragraphs(std::string_view span, std::vector<std::string_view>& units) {
    size_t start = 0;
    for (size_t i = 0; i < span.size();) {
      size_t space = unicode_space_length(span, i);
      if (space == 0) {
        ++i;
        continue;
      }
      size_t run_end = i;
      int breaks = 0;
      while (run_end < span.size()) {
        size_t n = unicode_space_length(span, run_end);
        if (n == 0) break;
        if (span[run_end] == '\n') ++breaks;
        run_end += n;
      }
      if (breaks >= 2) {
        units.push_back(span.substr(start, run_end - start));
        start = run_end;
      }
      i = run_end;
    }
    if (start < span.size()) units.push_back(span.substr(start));
  }

  // ICU's sentence boundaries fall after the white space that ends a sentence.
  static void cut_sentences(std::string_view span, std::vector<std::string_view>& units) {
    // One iterator per thread: creating one loads the break rules.
    thread_local std::unique_ptr<icu::BreakIterator> iterator = [] {
      UErrorCode status = U_ZERO_ERROR;
      std::unique_ptr<icu::BreakIterator> it(
          icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
      return U_SUCCESS(status) ? std::move(it) : nullptr;
    }();
    if (!iterator || span.size() > static_cast<size_t>(INT32_MAX)) {
      return cut_words(span, units);  // no rules to apply: the next level down
    }
    UErrorCode status = U_ZERO_ERROR;
    // UTF-8 UText: the iterator's indexes are byte offsets into `span`.
    UText* ut = utext_openUTF8(nullptr, span.data(), static_cast<int64_t>(span.size()), &status);
    if (U_FAILURE(status)) return cut_words(span, units);
    iterator->setText(ut, status);
    size_t start = 0;
    if (U_SUCCESS(status)) {
      for (int32_t end = iterator->next(); end != icu::BreakIterator::DONE;
           end = iterator->next()) {
        units.push_back(span.substr(start, static_cast<size_t>(end) - start));
        start = static_cast<size_t>(end);
      }
    }
    if (start < span.size()) units.push_back(span.substr(start));
    // Detach the text before closing it (the iterator is reused by the next call).
    UText* empty = utext_openUTF8(nullptr, "", 0, &status);
    UErrorCode reset = U_ZERO_ERROR;
    iterator->setText(empty, reset);
    utext_close(ut);
    utext_close(empty);
  }

  static void cut_words(std::string_view span, std::vector<std::string_view>& units) {
    size_t start = 0;
    bool in_space = false;
    for (size_t i = 0; i < span.size();) {
      size_t space = unicode_space_length(span, i);
      if (space == 0 && in_space) {
        units.push_back(span.substr(start, i - start));
        start = i;
      }
      in_space = space != 0;
      i += space ? space : 1;
    }
    if (start < span.size()) units.push_back(span.substr(start));
  }

  static void cut_code_points(std::string_view span, std::vector<std::string_view>& units) {
    size_t start = 0;
    for (size_t i = 1; i <= span.size(); ++i) {
      // A code point ends before the next lead byte (anything but 10xxxxxx) or at the end.
      if (i == span.size() || !is_utf8_continuation(span[i])) {
        units.push_back(span.substr(start, i - start));
        start = i;
      }
    }
  }

  const ChunkLimits& limits_;
  std::vector<std::string_view>& out_;
};

}  // namespace

void chunk_text(std::string_view text, const ChunkLimits& limits,
                std::vector<std::string_view>& pieces) {
  pieces.clear();
  if (text.empty()) return;
  Chunker(limits, pieces).split(text, Level::kParagraph);
  if (!limits.strip) return;
  size_t kept = 0;
  for (std::string_view piece : pieces) {
    std::string_view stripped = trim_unicode_space(piece);
    if (!stripped.empty()) pieces[kept++] = stripped;
  }
  pieces.resize(kept);
}

}  // namespace winnow
