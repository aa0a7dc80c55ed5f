#include "text/unicode_repair.h"

#include <unicode/normalizer2.h>
#include <unicode/stringpiece.h>
#include <utf8proc.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/utf8.h"
#include "text/mojibake.h"

namespace winnow {

bool remove_control_characters(std::string_view s, std::string& out) {
  // Bytes that can start a control: C0 and DEL; C1 (U+0080..U+009F) is C2 80..C2 9F; U+FEFF is
  // EF BB BF. Anything else is copied in runs.
  auto needs_work = [&](size_t i) {
    auto c = static_cast<uint8_t>(s[i]);
    if (c < 0x20) return c != '\t' && c != '\n';
    if (c == 0x7F) return true;
    if (c == 0xC2) return i + 1 < s.size() && static_cast<uint8_t>(s[i + 1]) < 0xA0;
    if (c == 0xEF)
      return i + 2 < s.size() && static_cast<uint8_t>(s[i + 1]) == 0xBB &&
             static_cast<uint8_t>(s[i + 2]) == 0xBF;
    return false;
  };
  size_t i = 0;
  while (i < s.size() && !needs_work(i)) ++i;
  if (i == s.size()) return false;
  std::string result;
  result.reserve(s.size());
  size_t copied = 0;
  while (i < s.size()) {
    if (!needs_work(i)) {
      ++i;
      continue;
    }
    result.append(s.data() + copied, i - copied);
    auto c = static_cast<uint8_t>(s[i]);
    size_t len = 1;
    if (c == '\r') {
      result += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') len = 2;
    } else if (c == '\v' || c == '\f') {
      result += '\n';
    } else if (c == 0xC2) {
      len = 2;
      if (static_cast<uint8_t>(s[i + 1]) == 0x85) result += '\n';  // NEL, next line
    } else if (c == 0xEF) {
      len = 3;
    }
    i += len;
    copied = i;
  }
  result.append(s.data() + copied, s.size() - copied);
  out = std::move(result);
  return true;
}

bool normalize_unicode(std::string_view s, UnicodeNormalization form, std::string& out) {
  if (form == UnicodeNormalization::kNone) return false;
  // Quick checks: ASCII is unchanged by both forms; below U+0300 (no lead byte 0xCC or higher)
  // every character is NFC already, while NFKC also folds some Latin-1 characters (NBSP, ², ¼).
  bool ascii = true, below_combining = true;
  for (unsigned char c : s) {
    ascii &= c < 0x80;
    below_combining &= c < 0xCC;
  }
  if (ascii) return false;
  if (form == UnicodeNormalization::kNfc && below_combining) return false;
  // Most text is normalised already: ICU's quick check says so without building a copy.
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = form == UnicodeNormalization::kNfc
                                           ? icu::Normalizer2::getNFCInstance(status)
                                           : icu::Normalizer2::getNFKCInstance(status);
  if (U_SUCCESS(status) && s.size() <= INT32_MAX &&
      normalizer->isNormalizedUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())),
                                   status) &&
      U_SUCCESS(status)) {
    return false;
  }

  int options = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
  if (form == UnicodeNormalization::kNfkc) options |= UTF8PROC_COMPAT;
  utf8proc_uint8_t* mapped = nullptr;
  utf8proc_ssize_t length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                         static_cast<utf8proc_ssize_t>(s.size()), &mapped,
                                         static_cast<utf8proc_option_t>(options));
  if (length < 0) return false;  // only on invalid input or out of memory: leave the text
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(mapped, &std::free);
  std::string_view result(reinterpret_cast<const char*>(mapped), static_cast<size_t>(length));
  if (result == s) return false;
  out.assign(result);
  return true;
}

UnicodeRepairChanges repair_unicode(std::string_view text, const UnicodeRepairOptions& options,
                                    std::string& out) {
  UnicodeRepairChanges changes;
  // Clean ASCII without controls (most web text) needs nothing; one pass says so.
  bool ascii_clean = true;
  for (unsigned char c : text) {
    if (c >= 0x80 || c == 0x7F || (c < 0x20 && c != '\t' && c != '\n')) {
      ascii_clean = false;
      break;
    }
  }
  if (ascii_clean) return changes;

  std::string current;
  std::string_view view = text;
  std::string scratch;
  auto take = [&](std::string& next) {
    current.swap(next);
    view = current;
  };
  if (!is_valid_utf8(view)) {
    scratch.clear();
    append_sanitized_utf8(scratch, view);
    take(scratch);
    changes.invalid_utf8 = true;
  }
  // Mojibake first: its C1 characters are evidence that control removal would destroy.
  if (options.fix_mojibake && repair_mojibake(view, scratch)) {
    take(scratch);
    changes.mojibake = true;
  }
  if (options.remove_control_chars && remove_control_characters(view, scratch)) {
    take(scratch);
    changes.control_chars = true;
  }
  if (normalize_unicode(view, options.normalization, scratch)) {
    take(scratch);
    changes.normalized = true;
  }
  if (changes.any()) out = std::move(current);
  return changes;
}

}  // namespace winnow
