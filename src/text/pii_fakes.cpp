#include "text/pii_fakes.h"

#include <cstdio>

#include "core/hash.h"
#include "text/pii_name_fakes.h"

namespace winnow {

namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// A stream of draws from the original's hash (splitmix64 steps).
class Draws {
 public:
  Draws(PiiEntity entity, std::string_view original, uint64_t seed)
      : state_(hash64(original, seed ^ (0x9E3779B97F4A7C15ull * (1 + unsigned(entity))))) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [lo, hi] for stand-ins.
  int between(int lo, int hi) { return lo + static_cast<int>(next() % uint64_t(hi - lo + 1)); }
  char digit(int lo = 0) { return static_cast<char>('0' + between(lo, 9)); }

 private:
  uint64_t state_;
};

void fake_email(Draws& d, std::string& out) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  static constexpr const char* kDomains[] = {"example.com", "example.net", "example.org"};
  out += static_cast<char>('a' + d.between(0, 25));
  for (int k = 0; k < 9; ++k) out += kChars[d.between(0, 35)];
  out += '@';
  out += kDomains[d.between(0, 2)];
}

// Digits replaced in place, separators kept. Kept: a "+CC" country code, a leading trunk 0 or
// North American 1.
// A digit that starts a group is 2-9 (NANP area codes and exchanges), one right after the
// trunk 0 is 1-9 (00 would be an international prefix).
void fake_phone(Draws& d, std::string_view s, std::string& out) {
  size_t keep = 0;
  if (!s.empty() && s[0] == '+') {
    // The country code: a first group of up to three digits, else its first two
    // ("+4915112345678").
    size_t group = 1;
    while (group < s.size() && is_digit(s[group])) ++group;
    keep = group - 1 <= 3 ? group : 3;
  } else if (!s.empty() && s[0] == '0') {
    keep = 1;
  } else if (s.size() > 2 && s[0] == '1' && !is_digit(s[1])) {
    keep = 1;  // the North American "1-"
  }
  out.append(s.substr(0, keep));
  for (size_t k = keep; k < s.size(); ++k) {
    char c = s[k];
    if (!is_digit(c)) {
      out += c;
    } else if (c == '0' && k > 0 && s[k - 1] == '(' && k + 1 < s.size() && s[k + 1] == ')') {
      out += c;  // the trunk "(0)" of "+44 (0)20 ..."
    } else if (k == 0 || !is_digit(s[k - 1])) {
      out += d.digit(2);
    } else if (k == 1 && s[0] == '0') {
      out += d.digit(1);
    } else {
      out += d.digit();
    }
  }
}

void fake_ip(Draws& d, std::string_view s, std::string& out) {
  char buffer[64];
  if (s.find(':') == std::string_view::npos) {
    std::snprintf(buffer, sizeof buffer, "%d.%d.%d.%d", d.between(1, 223), d.between(0, 255),
                  d.between(0, 255), d.between(1, 254));
  } else {
    std::snprintf(buffer, sizeof buffer, "2001:db8:%x:%x:%x:%x:%x:%x", d.between(1, 0xffff),
                  d.between(0, 0xffff), d.between(0, 0xffff), d.between(0, 0xffff),
                  d.between(0, 0xffff), d.between(1, 0xffff));
  }
  out += buffer;
}

void fake_card(Draws& d, std::string_view s, std::string& out) {
  std::string digits;
  for (char c : s) {
    if (is_digit(c)) digits += c;
  }
  for (size_t k = 6; k + 1 < digits.size(); ++k) digits[k] = d.digit();
  digits.back() = luhn_check_digit(std::string_view(digits).substr(0, digits.size() - 1));
  size_t next = 0;
  for (char c : s) out += is_digit(c) ? digits[next++] : c;
}

void fake_iban(Draws& d, std::string_view s, std::string& out) {
  std::string compact;
  for (char c : s) {
    if (c != ' ') compact += c;
  }
  compact[2] = compact[3] = '0';
  for (size_t k = 4; k < compact.size(); ++k) {
    compact[k] = is_upper(compact[k]) ? static_cast<char>('A' + d.between(0, 25)) : d.digit();
  }
  int check = 98 - iban_mod97(compact);
  compact[2] = static_cast<char>('0' + check / 10);
  compact[3] = static_cast<char>('0' + check % 10);
  size_t next = 0;
  for (char c : s) out += c == ' ' ? ' ' : compact[next++];
}

void fake_ssn(Draws& d, std::string& out) {
  int area = d.between(1, 898);
  if (area >= 666) ++area;  // 666 is never issued
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%03d-%02d-%04d", area, d.between(1, 99),
                d.between(1, 9999));
  out += buffer;
}

void fake_url_credentials(Draws& d, std::string_view s, std::string& out) {
  size_t scheme_end = s.find("://");
  size_t at = s.find('@', scheme_end == std::string_view::npos ? 0 : scheme_end);
  if (scheme_end == std::string_view::npos || at == std::string_view::npos) {
    out.append(s);
    return;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "user%06x:%016llx", d.between(0, 0xffffff),
                static_cast<unsigned long long>(d.next()));
  out.append(s.substr(0, scheme_end + 3));
  out += buffer;
  out.append(s.substr(at));
}

}  // namespace

void append_pii_fake(PiiEntity entity, std::string_view original, uint64_t seed,
                     std::string& out) {
  Draws d(entity, original, seed);
  switch (entity) {
    case PiiEntity::kEmailAddress:
      return fake_email(d, out);
    case PiiEntity::kPhoneNumber:
      return fake_phone(d, original, out);
    case PiiEntity::kIpAddress:
      return fake_ip(d, original, out);
    case PiiEntity::kCreditCard:
      return fake_card(d, original, out);
    case PiiEntity::kIbanCode:
      return fake_iban(d, original, out);
    case PiiEntity::kUsSsn:
      return fake_ssn(d, out);
    case PiiEntity::kUrlCredentials:
      return fake_url_credentials(d, original, out);
    case PiiEntity::kPerson:
    case PiiEntity::kLocation:
    case PiiEntity::kOrganization:
      return append_name_fake(entity, original, d.next(), out);
  }
}

void append_pii_hash(std::string_view original, uint64_t seed, std::string& out) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx",
                static_cast<unsigned long long>(hash64(original, seed)));
  out.append(buffer, 16);
}

}  // namespace winnow
