#include "io/http_response_head.h"

#include <algorithm>

#include "core/ascii.h"
#include "io/header_field.h"

namespace winnow {

std::optional<HttpResponseHead> HttpResponseHead::parse(std::string_view block, bool complete) {
  HttpResponseHead head;
  size_t end = block.find("\r\n\r\n");
  size_t sep = 4;
  if (size_t lf = block.find("\n\n"); lf != std::string_view::npos && lf < end) {
    end = lf;
    sep = 2;
  }
  if (end == std::string_view::npos) {
    if (!complete) return std::nullopt;
    end = block.size();  // a head with no body
    sep = 0;
  }
  head.body_offset = end + sep;
  std::string_view text = block.substr(0, end);
  size_t line_end = text.find('\n');
  std::string_view status_line = trim_field(text.substr(0, line_end));
  if (!status_line.starts_with("HTTP/")) return std::nullopt;
  size_t space = status_line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view code = status_line.substr(space + 1, 3);
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), is_ascii_digit)) {
    return std::nullopt;
  }
  head.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  while (line_end != std::string_view::npos) {
    text.remove_prefix(line_end + 1);
    line_end = text.find('\n');
    std::optional<HeaderField> field = HeaderField::parse(text.substr(0, line_end));
    if (!field) continue;
    if (ascii_iequals(field->name, "content-type")) {
      head.content_type = std::string(field->value);
    } else if (ascii_iequals(field->name, "transfer-encoding")) {
      head.chunked = ascii_lowered(field->value).find("chunked") != std::string::npos;
    } else if (ascii_iequals(field->name, "content-encoding")) {
      head.content_encoding = ascii_lowered(field->value);
    }
  }
  return head;
}

}  // namespace winnow
