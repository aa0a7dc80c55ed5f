#pragma once
// HeaderField: one "Name: value" line of a WARC record's headers or of an HTTP response head
// (WARC's named fields take HTTP's syntax), and what both parsers do with field values.
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

struct HeaderField {
  std::string_view name;
  std::string_view value;

  // Splits `line` at its first colon, both sides trimmed (trim_field); nullopt without a colon.
  static std::optional<HeaderField> parse(std::string_view line);
};

// `s` without leading spaces and tabs (HTTP's optional white space) and without trailing ones
// nor the CR and LF of a line end: lines are cut at LF, so a CRLF line keeps its CR until here.
std::string_view trim_field(std::string_view s);

// The media type of a Content-Type value, lower-cased, without its parameters:
// "Text/HTML; charset=x" -> "text/html".
std::string media_type(std::string_view content_type);

}  // namespace winnow
