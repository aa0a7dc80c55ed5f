#include "io/json_members.h"

#include "core/ascii.h"

namespace winnow {

namespace {

// Returns the index just past the closing quote of the string opening at `i`.
size_t skip_string(std::string_view s, size_t i) {
  ++i;
  while (i < s.size()) {
    if (s[i] == '\\') {
      i += 2;
    } else if (s[i] == '"') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return s.size();
}

// Returns the index just past the value starting at `i`.
size_t skip_value(std::string_view s, size_t i) {
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return s.size();
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_json_whitespace(s[i]))
    ++i;
  return i;
}

}  // namespace

void split_members(std::string_view s, std::vector<JsonMember>& members) {
  members.clear();
  size_t i = 0;
  while (i < s.size() && s[i] != '{') ++i;
  ++i;
  while (i < s.size()) {
    while (i < s.size() && (is_json_whitespace(s[i]) || s[i] == ',')) ++i;
    if (i >= s.size() || s[i] == '}') return;
    size_t key_start = i;
    size_t key_end = skip_string(s, i);
    i = key_end;
    while (i < s.size() && (is_json_whitespace(s[i]) || s[i] == ':')) ++i;
    size_t value_end = skip_value(s, i);
    members.push_back({s.substr(key_start + 1, key_end - key_start - 2),
                       s.substr(key_start, value_end - key_start)});
    i = value_end;
  }
}

}  // namespace winnow
