#pragma once
// Charset handling for web pages: find the encoding of an HTML payload and convert it to UTF-8.
// The encoding comes from, in order: a byte order mark, the HTTP Content-Type header, a
// <meta charset> or <meta http-equiv="Content-Type"> near the start of the page, and last
// detection (uchardet). Labels follow the WHATWG Encoding standard where it differs from IANA
// (iso-8859-1 and us-ascii mean windows-1252, gb2312 means gbk, utf-16 in a meta means utf-8).
// Conversion uses ICU; bytes invalid in the charset become U+FFFD.
#include <string>
#include <string_view>

namespace winnow {

enum class CharsetSource { kBom, kHeader, kMeta, kDetected, kDefault };
std::string_view charset_source_name(CharsetSource source);

struct DecodedHtml {
  std::string text;     // UTF-8
  std::string charset;  // lowercase name used to decode ("utf-8", "windows-1252", "shift_jis")
  CharsetSource source = CharsetSource::kDefault;
};

// The charset parameter of a Content-Type value ("text/html; charset=UTF-8" -> "UTF-8").
std::string charset_from_content_type(std::string_view content_type);
// The charset declared by a <meta> tag in the first `scan_bytes` of `html`; "" when none.
std::string charset_from_meta(std::string_view html, size_t scan_bytes = 8192);
// uchardet's guess over the first `sample_bytes`; "" when it has none.
std::string detect_charset(std::string_view bytes, size_t sample_bytes = 64 << 10);
// The WHATWG-normalised lowercase name of `label` if ICU can decode it; "" otherwise.
std::string normalize_charset(std::string_view label);
// Converts `bytes` from `charset` (a normalised name) to UTF-8, appending to `out`. False when
// ICU has no converter for it (out is then unchanged).
bool convert_to_utf8(std::string_view bytes, const std::string& charset, std::string& out);

// The whole decision: `content_type` is the HTTP header value (may be empty). In order: a
// BOM; bytes that hold non-ASCII and are valid UTF-8 (whatever the labels say: NeMo also
// tries UTF-8 first); the header's charset; <meta>; unlabelled ASCII as UTF-8; uchardet;
// windows-1252. Thread-safe.
DecodedHtml decode_html(std::string_view bytes, std::string_view content_type);

}  // namespace winnow
