#include "core/visible_devices.h"

#include <algorithm>
#include <cstdlib>

#include "core/ascii.h"

namespace winnow {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_whitespace(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_whitespace(s.back())) s.remove_suffix(1);
  return s;
}

bool is_ordinal(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return is_ascii_digit(c); });
}

// UUIDs as nvidia-smi prints them; the runtime also takes a unique prefix, so only the
// "GPU-"/"MIG-" head and some hex are checked.
bool is_uuid(std::string_view s) {
  if (!s.starts_with("GPU-") && !s.starts_with("MIG-")) return false;
  s.remove_prefix(4);
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_ascii_hex_digit(c) || c == '-'; });
}

}  // namespace

std::optional<std::vector<std::string>> parse_visible_devices(const char* value) {
  if (!value) return std::nullopt;
  std::vector<std::string> out;
  std::string_view rest(value);
  while (true) {
    size_t comma = rest.find(',');
    std::string_view entry = trim(rest.substr(0, comma));
    if (is_ordinal(entry)) {
      // "007" is device 7: compare ordinals by value.
      size_t first = entry.find_first_not_of('0');
      entry = first == std::string_view::npos ? std::string_view("0") : entry.substr(first);
    } else if (!is_uuid(entry)) {
      break;  // the runtime ignores this entry and everything after it
    }
    if (std::find(out.begin(), out.end(), entry) != out.end()) break;
    out.emplace_back(entry);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::optional<std::vector<std::string>> visible_devices_from_environment() {
  return parse_visible_devices(std::getenv("CUDA_VISIBLE_DEVICES"));
}

}  // namespace winnow
