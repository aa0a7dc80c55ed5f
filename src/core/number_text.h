#pragma once
// Numbers read from text the same way whatever the process's locale. strtod, std::stod and
// the printf family follow LC_NUMERIC: a host that sets a comma-decimal locale (Python's
// locale.setlocale under de_DE, say) would read "0.2" as 0 there. std::from_chars never looks
// at the locale, so every number winnow parses goes through it.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace winnow {

// The whole of `text` as a T: an integer in base 10 (a leading '-' only for signed types, no
// '+', no spaces), or a floating-point number with '.' as its decimal point (also "inf",
// "nan"). nullopt for empty text, anything after the number, or a value out of T's range.
template <typename T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace winnow
