#pragma once
// Unicode repair of one document's text, in this order: invalid UTF-8 replaced by U+FFFD,
// mojibake repaired (text/mojibake.h), control characters removed, then normalisation (NFC or
// NFKC, utf8proc). Each step runs only when a cheap scan says it could change something, so
// clean ASCII text costs one pass over its bytes.
#include <string>
#include <string_view>

namespace winnow {

enum class UnicodeNormalization { kNone, kNfc, kNfkc };

struct UnicodeRepairOptions {
  bool fix_mojibake = true;
  bool remove_control_chars = true;
  UnicodeNormalization normalization = UnicodeNormalization::kNfc;
};

// Which steps changed the text.
struct UnicodeRepairChanges {
  bool invalid_utf8 = false;
  bool mojibake = false;
  bool control_chars = false;
  bool normalized = false;
  bool any() const { return invalid_utf8 || mojibake || control_chars || normalized; }
};

// Returns what changed; when anything did, `out` holds the repaired text (otherwise it is left
// untouched). Thread-safe.
UnicodeRepairChanges repair_unicode(std::string_view text, const UnicodeRepairOptions& options,
                                    std::string& out);

// Removes C0 and C1 control characters except tab and newline, and U+FEFF (a byte order mark
// inside text). Line-breaking controls become "\n" rather than vanishing, so the lines and words
// they separated stay apart: "\r\n", a lone "\r", vertical tab, form feed and U+0085 (NEL).
// Returns true and sets `out` when something changed. `utf8` must be valid UTF-8.
bool remove_control_characters(std::string_view utf8, std::string& out);

// NFC or NFKC with utf8proc. Returns true and sets `out` when the text changed. `utf8` must be
// valid UTF-8.
bool normalize_unicode(std::string_view utf8, UnicodeNormalization form, std::string& out);

}  // namespace winnow
