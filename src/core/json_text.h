#pragma once
// Writing JSON: string escaping for documents, and a small writer for reports (stats.json,
// completion markers, error records). Documents themselves are written from raw bytes.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

// Appends `utf8` as a quoted JSON string. Escapes what JSON requires (quote, backslash,
// control characters) and nothing else: non-ASCII text stays UTF-8.
void append_json_string(std::string& out, std::string_view utf8);

// Appends a double the way JSON wants it: shortest round-trip form, null for NaN/inf.
void append_json_number(std::string& out, double value);

// Appends floats as a JSON array, each in the shortest form that reads back as the same float
// (not the double's digits: 0.1f is written 0.1, not 0.10000000149011612); null for NaN/inf.
void append_json_float_array(std::string& out, std::span<const float> values);

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty) : pretty_(pretty) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& raw(std::string_view json);  // an already-encoded value

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void before_value();
  JsonWriter& close(char bracket);
  void newline();
  std::string out_;
  std::vector<int> counts_;  // items written so far in each open container
  bool pretty_;
  bool after_key_ = false;
};

}  // namespace winnow
