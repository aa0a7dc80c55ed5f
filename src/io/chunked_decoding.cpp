#include "io/chunked_decoding.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "io/header_field.h"

namespace winnow {

void decode_chunked(std::string& body, size_t from) {
  std::string out;
  size_t pos = from;
  while (pos < body.size()) {
    size_t eol = body.find('\n', pos);
    if (eol == std::string::npos) break;
    std::string_view size_text = trim_field(std::string_view(body).substr(pos, eol - pos));
    size_text = size_text.substr(0, size_text.find(';'));
    uint64_t size = 0;
    auto [ptr, ec] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (ec != std::errc() || size_text.empty()) break;
    pos = eol + 1;
    if (size == 0) break;
    size_t take = static_cast<size_t>(std::min<uint64_t>(size, body.size() - pos));
    out.append(body, pos, take);
    pos += take;
    while (pos < body.size() && (body[pos] == '\r' || body[pos] == '\n')) ++pos;
  }
  body.resize(from);
  body += out;
}

}  // namespace winnow
