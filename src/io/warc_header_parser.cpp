#include "io/warc_header_parser.h"

#include <fmt/format.h>

#include <charconv>

#include "core/ascii.h"
#include "io/header_field.h"

namespace winnow {

namespace {

bool parse_u64(std::string_view s, uint64_t& out) {
  s = trim_field(s);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

WarcHeaderParser::Step WarcHeaderParser::bad(std::string why) {
  error_ = std::move(why);
  return Step::kBad;
}

WarcHeaderParser::Step WarcHeaderParser::add_line(std::string_view raw, bool cut) {
  bytes_ += raw.size() + 1;
  if (cut || bytes_ > kMaxBlock) return bad("WARC headers are too long");
  std::string_view line = trim_field(raw);
  if (line.empty()) {
    return headers_.has_length ? Step::kDone : bad("the record has no Content-Length");
  }
  std::optional<HeaderField> field = HeaderField::parse(line);
  if (!field) {
    if (raw[0] == ' ' || raw[0] == '\t') return Step::kMore;  // a folded continuation line
    return bad(fmt::format("malformed WARC header line '{}'", line.substr(0, 80)));
  }
  auto [name, value] = *field;
  if (ascii_iequals(name, "WARC-Type")) {
    headers_.type = ascii_lowered(value);
  } else if (ascii_iequals(name, "WARC-Target-URI")) {
    if (value.size() >= 2 && value.front() == '<' && value.back() == '>') {
      value = value.substr(1, value.size() - 2);
    }
    headers_.target_uri = std::string(value);
  } else if (ascii_iequals(name, "WARC-Record-ID")) {
    headers_.record_id = std::string(value);
  } else if (ascii_iequals(name, "WARC-Date")) {
    headers_.date = std::string(value);
  } else if (ascii_iequals(name, "WARC-Block-Digest")) {
    headers_.block_digest = std::string(value);
  } else if (ascii_iequals(name, "WARC-Payload-Digest")) {
    headers_.payload_digest = std::string(value);
  } else if (ascii_iequals(name, "Content-Type")) {
    headers_.content_type = std::string(value);
  } else if (ascii_iequals(name, "Content-Length")) {
    if (!parse_u64(value, headers_.content_length)) {
      return bad(fmt::format("Content-Length '{}' is not a number", value.substr(0, 40)));
    }
    headers_.has_length = true;
  }
  return Step::kMore;
}

}  // namespace winnow
