#include "io/header_field.h"

#include "core/ascii.h"

namespace winnow {

std::optional<HeaderField> HeaderField::parse(std::string_view line) {
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return HeaderField{trim_field(line.substr(0, colon)), trim_field(line.substr(colon + 1))};
}

std::string_view trim_field(std::string_view s) {
  return ascii_trim_end(ascii_trim_start(s, " \t"), " \t\r\n");
}

std::string media_type(std::string_view content_type) {
  return ascii_lowered(trim_field(content_type.substr(0, content_type.find(';'))));
}

}  // namespace winnow
