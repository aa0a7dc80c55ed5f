#include "core/json_text.h"

#include <charconv>
#include <cmath>

namespace winnow {

void append_json_string(std::string& out, std::string_view utf8) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t run_start = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(utf8.data() + run_start, i - run_start);
    run_start = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
  }
  out.append(utf8.data() + run_start, utf8.size() - run_start);
  out.push_back('"');
}

void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  // The shortest form of a large double can be a bare integer beyond 64 bits, which strict
  // parsers (simdjson, so winnow reading its own output) reject; the exponent form is safe.
  if (std::fabs(value) >= 0x1p63 &&
      std::string_view(buffer, end - buffer).find_first_of(".e") == std::string_view::npos) {
    end = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific).ptr;
  }
  out.append(buffer, end);
}

void append_json_float_array(std::string& out, std::span<const float> values) {
  out.push_back('[');
  char buffer[32];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    float value = values[i];
    if (!std::isfinite(value)) {
      out += "null";
      continue;
    }
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    // As for doubles: a bare integer beyond 64 bits is rejected by strict parsers.
    if (std::fabs(value) >= 0x1p63f &&
        std::string_view(buffer, end - buffer).find_first_of(".e") == std::string_view::npos) {
      end =
          std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific).ptr;
    }
    out.append(buffer, end);
  }
  out.push_back(']');
}

void JsonWriter::newline() {
  if (!pretty_) return;
  out_.push_back('\n');
  out_.append(counts_.size() * 2, ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!counts_.empty()) {
    if (counts_.back()++ > 0) out_.push_back(',');
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_.push_back('{');
  counts_.push_back(0);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  bool empty = counts_.back() == 0;
  counts_.pop_back();
  if (!empty) newline();
  out_.push_back(bracket);
  return *this;
}

JsonWriter& JsonWriter::end_object() { return close('}'); }

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_.push_back('[');
  counts_.push_back(0);
  return *this;
}

JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  append_json_string(out_, name);
  out_ += pretty_ ? ": " : ":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  append_json_string(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t number) {
  before_value();
  out_ += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
  before_value();
  out_ += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  append_json_number(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
  return *this;
}

}  // namespace winnow
