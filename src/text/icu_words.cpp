#include "text/icu_words.h"

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include <climits>
#include <memory>

#include "text/python_text.h"

namespace winnow {

void icu_word_split(std::string_view text, std::vector<TextPiece>& out) {
  out.clear();
  if (text.empty()) return;
  // One iterator per thread: creating one loads the break rules and dictionaries.
  thread_local std::unique_ptr<icu::BreakIterator> iterator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> it(
        icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    return U_SUCCESS(status) ? std::move(it) : nullptr;
  }();
  if (!iterator || text.size() > static_cast<size_t>(INT32_MAX)) return;
  UErrorCode status = U_ZERO_ERROR;
  // UTF-8 UText: the iterator's indexes are byte offsets into `text`.
  UText* ut = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status);
  if (U_FAILURE(status)) return;
  iterator->setText(ut, status);
  if (U_SUCCESS(status)) {
    int32_t start = iterator->first();
    for (int32_t end = iterator->next(); end != icu::BreakIterator::DONE;
         start = end, end = iterator->next()) {
      std::string_view piece =
          text.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
      if (python_strip(piece).empty()) continue;
      out.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(piece.size()),
                     static_cast<uint32_t>(python_len(piece))});
    }
  }
  // Detach the text before closing it (the iterator is reused by the next call).
  UText* empty = utext_openUTF8(nullptr, "", 0, &status);
  UErrorCode reset = U_ZERO_ERROR;
  iterator->setText(empty, reset);
  utext_close(ut);
  utext_close(empty);
}

}  // namespace winnow
