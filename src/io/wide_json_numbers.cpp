#include "io/wide_json_numbers.h"

namespace winnow {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view s) {
  size_t i = 0, n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i == n) return false;
  if (s[i] == '0') {
    ++i;
  } else if (is_digit(s[i])) {
    while (i < n && is_digit(s[i])) ++i;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    size_t digits = ++i;
    while (i < n && is_digit(s[i])) ++i;
    if (i == digits) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    size_t digits = i;
    while (i < n && is_digit(s[i])) ++i;
    if (i == digits) return false;
  }
  return i == n;
}

// Whether simdjson refuses a valid JSON number: asked of simdjson itself, so the two agree on
// every edge (-9223372036854775808 parses, one less does not).
bool simdjson_refuses(std::string_view number) {
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(number);
  simdjson::dom::element element;
  return parser.parse(padded).get(element) != simdjson::SUCCESS;
}

bool is_number_char(char c) {
  return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

bool quote_wide_numbers(std::string_view json, std::string& out) {
  out.clear();
  bool quoted = false;
  size_t copied = 0, i = 0, n = json.size();
  while (i < n) {
    char c = json[i];
    if (c == '"') {
      // Past the string, its escapes included.
      for (++i; i < n && json[i] != '"'; ++i) {
        if (json[i] == '\\') ++i;
      }
      ++i;
    } else if (is_number_char(c)) {
      // A whole run of number characters, so "+1e400" or "01" is one (invalid) token.
      size_t start = i;
      while (i < n && is_number_char(json[i])) ++i;
      std::string_view token = json.substr(start, i - start);
      if (is_json_number(token) && simdjson_refuses(token)) {
        out.append(json.substr(copied, start - copied));
        out += '"';
        out.append(token);
        out += '"';
        copied = i;
        quoted = true;
      }
    } else {
      ++i;
    }
  }
  if (quoted) out.append(json.substr(copied));
  return quoted;
}

simdjson::error_code parse_record(simdjson::dom::parser& parser, std::string_view record,
                                  simdjson::dom::element& root) {
  auto parse = [&](std::string_view text) {
    auto error = parser.parse(text.data(), text.size(), false).get(root);
    if (error == simdjson::CAPACITY && parser.allocate(text.size()) == simdjson::SUCCESS) {
      error = parser.parse(text.data(), text.size(), false).get(root);
    }
    return error;
  };
  auto error = parse(record);
  if (error != simdjson::NUMBER_ERROR) return error;
  thread_local std::string copy;
  if (!quote_wide_numbers(record, copy)) return error;
  size_t size = copy.size();
  copy.append(simdjson::SIMDJSON_PADDING, ' ');  // parsed in place, as records are
  auto quoted_error = parse(std::string_view(copy.data(), size));
  return quoted_error == simdjson::SUCCESS ? quoted_error : error;
}

}  // namespace winnow
