#include "text/pii_detectors.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>

namespace winnow {

namespace {

constexpr std::array<std::string_view, kPiiEntityCount> kEntityNames = {
    "EMAIL_ADDRESS", "PHONE_NUMBER", "IP_ADDRESS", "CREDIT_CARD",
    "IBAN_CODE",     "US_SSN",       "URL_CREDENTIALS", "PERSON",
    "LOCATION",      "ORGANIZATION",
};

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_alpha(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
inline bool is_word(char c) { return is_alnum(c) || c == '_'; }
inline bool is_hex(char c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
// The characters of an e-mail's local part that real addresses use (RFC 5322's atext less the
// rarely used ones that also end prose: ! # $ & ' * / = ? ^ ` { | } ~).
inline bool is_local_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}
// RFC 3986 userinfo: unreserved, percent-encoded, sub-delims and ':'.
inline bool is_userinfo_char(char c) {
  if (is_alnum(c)) return true;
  switch (c) {
    case '-': case '.': case '_': case '~': case '%': case '!': case '$': case '&': case '\'':
    case '(': case ')': case '*': case '+': case ',': case ';': case '=': case ':':
      return true;
    default:
      return false;
  }
}

// What starts a scanner: digits (numbers, and IBANs from their check digits), '+' and '('
// (phone numbers), '@' (e-mail), ':' (IPv6, scheme://). Everything else is skipped by one
// table lookup, which is what keeps prose fast.
enum : uint8_t { kTrigDigit = 1, kTrigPlus = 2, kTrigParen = 3, kTrigAt = 4, kTrigColon = 5 };
constexpr std::array<uint8_t, 256> make_triggers() {
  std::array<uint8_t, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kTrigDigit;
  t['+'] = kTrigPlus;
  t['('] = kTrigParen;
  t['@'] = kTrigAt;
  t[':'] = kTrigColon;
  return t;
}
constexpr std::array<uint8_t, 256> kTriggers = make_triggers();

struct Candidate {
  size_t begin;
  size_t end;
  PiiEntity entity;
};

class Scanner {
 public:
  Scanner(std::string_view text, PiiEntityMask entities, std::vector<Candidate>& out)
      : t_(text), n_(text.size()), want_(entities), out_(out) {}

  void run() {
    const bool numbers = want_ & (pii_bit(PiiEntity::kPhoneNumber) | pii_bit(PiiEntity::kIpAddress) |
                                  pii_bit(PiiEntity::kCreditCard) | pii_bit(PiiEntity::kUsSsn));
    const bool iban = want_ & pii_bit(PiiEntity::kIbanCode);
    const bool phone = want_ & pii_bit(PiiEntity::kPhoneNumber);
    const bool email = want_ & pii_bit(PiiEntity::kEmailAddress);
    const bool ipv6 = want_ & pii_bit(PiiEntity::kIpAddress);
    const bool url = want_ & pii_bit(PiiEntity::kUrlCredentials);
    for (size_t i = 0; i < n_; ++i) {
      switch (kTriggers[static_cast<unsigned char>(t_[i])]) {
        case 0:
          break;
        case kTrigDigit:
          if (numbers && numeric_start_ok(i)) {
            try_numbers(i);
          } else if (iban && i >= 2 && is_upper(t_[i - 1]) && is_upper(t_[i - 2]) &&
                     is_digit(at(i + 1)) && !is_word(before(i - 2))) {
            try_iban(i - 2);
          }
          break;
        case kTrigPlus:
          if (phone && is_digit(at(i + 1)) && !is_word(before(i)) && before(i) != '+') {
            try_international_phone(i);
          }
          break;
        case kTrigParen:
          if (phone && is_digit(at(i + 1)) && !is_word(before(i))) try_us_phone(i);
          break;
        case kTrigAt:
          if (email) try_email(i);
          break;
        case kTrigColon:
          if (at(i + 1) == '/' && at(i + 2) == '/') {
            if (url) try_url_credentials(i);
          } else if (ipv6 && i >= ipv6_until_) {
            try_ipv6(i);
          }
          break;
      }
    }
  }

 private:
  char at(size_t i) const { return i < n_ ? t_[i] : '\0'; }
  char before(size_t i) const { return i > 0 ? t_[i - 1] : '\0'; }
  bool want(PiiEntity e) const { return want_ & pii_bit(e); }
  void emit(size_t begin, size_t end, PiiEntity e) { out_.push_back({begin, end, e}); }

  // A number starts at a token: not inside a word, and not the continuation of a dotted,
  // dashed or slashed number ("1.2.3.4.5" has no address at its "2").
  bool numeric_start_ok(size_t i) const {
    char p = before(i);
    if (is_word(p) || p == '@') return false;
    if ((p == '.' || p == '-' || p == '/' || p == ',' || p == ':') && i >= 2 &&
        is_digit(t_[i - 2])) {
      return false;
    }
    return true;
  }
  // Numbers grouped by spaces must not be the tail of a longer run of groups (hex dumps, tables,
  // "1 1 2 3 5 ... 377 610 987 1597"): the token before, after one space, has no digit.
  bool follows_digit_group(size_t i) const {
    if (i < 2 || before(i) != ' ' || !is_alnum(t_[i - 2])) return false;
    size_t k = i - 2;
    while (k > 0 && is_alnum(t_[k - 1])) --k;
    for (size_t j = k; j + 1 < i; ++j) {
      if (is_digit(t_[j])) return true;
    }
    return false;
  }
  // ...nor go on with another group after the same separator.
  bool continues(size_t e, char sep) const { return at(e) == sep && is_digit(at(e + 1)); }
  // ...and ends at one: not followed by a word character, nor by a separator and a digit.
  bool numeric_end_ok(size_t e) const {
    char c = at(e);
    if (is_word(c) || c == '@') return false;
    if ((c == '.' || c == '-' || c == '/' || c == ',') && is_digit(at(e + 1))) return false;
    return true;
  }

  size_t digit_run(size_t p) const {
    size_t q = p;
    while (q < n_ && is_digit(t_[q])) ++q;
    return q - p;
  }
  int number_at(size_t p, size_t len) const {
    int v = 0;
    for (size_t k = 0; k < len; ++k) v = v * 10 + (t_[p + k] - '0');
    return v;
  }

  void try_numbers(size_t i) {
    if (want(PiiEntity::kIpAddress)) try_ipv4(i);
    if (want(PiiEntity::kUsSsn)) try_ssn(i);
    if (want(PiiEntity::kCreditCard)) try_card(i);
    if (want(PiiEntity::kPhoneNumber)) {
      try_us_phone(i);
      if (t_[i] == '0') try_national_phone(i);
    }
  }

  // Dotted quad, each octet 0-255 without leading zeros (as Python's ipaddress reads them).
  bool ipv4_at(size_t p, size_t& end) const {
    for (int octet = 0; octet < 4; ++octet) {
      size_t len = digit_run(p);
      if (len == 0 || len > 3) return false;
      if (len > 1 && t_[p] == '0') return false;
      if (number_at(p, len) > 255) return false;
      p += len;
      if (octet < 3) {
        if (at(p) != '.') return false;
        ++p;
      }
    }
    end = p;
    return true;
  }
  void try_ipv4(size_t i) {
    size_t end;
    if (!ipv4_at(i, end)) return;
    // The IPv4 tail of a longer colon run is the IPv6 scanner's to judge ("1:2:3:4:5:6:7:1.2.3.4"
    // is no address at all), but "host:10.0.0.1" is one.
    if (before(i) == ':') {
      size_t k = i - 1;
      while (k > 0 && (is_hex(t_[k - 1]) || t_[k - 1] == ':') && i - k < 48) {
        if (t_[k - 1] == ':') return;
        --k;
      }
    }
    char c = at(end);
    // A range "10.0.0.1-10.0.0.9" or a CIDR "/8" may follow; a fifth number or a name part
    // ("3.1.1.3.tar.gz") may not.
    if (is_word(c) || c == '@' || (c == '.' && is_alnum(at(end + 1)))) return;
    // Dotted versions: a name joined to it ("novas-3.1.1.3", "Firefox/2.0.0.11") or a word
    // that announces one ("version 1.2.0.1").
    char p = before(i);
    if ((p == '-' || p == '/') && i >= 2 && is_alpha(t_[i - 2])) return;
    if (p == ' ' && after_version_word(i - 1)) return;
    emit(i, end, PiiEntity::kIpAddress);
  }

  bool after_version_word(size_t space) const {
    size_t k = space;
    while (k > 0 && is_alpha(t_[k - 1]) && space - k <= 8) --k;
    if (k > 0 && is_word(t_[k - 1])) return false;
    std::string_view word = t_.substr(k, space - k);
    for (std::string_view v : {"version", "Version", "VERSION", "ver", "v", "V", "release",
                               "Release", "rev", "build", "Build", "section", "Section"}) {
      if (word == v) return true;
    }
    return false;
  }

  void try_ssn(size_t i) {
    if (digit_run(i) != 3 || at(i + 3) != '-' || digit_run(i + 4) != 2 || at(i + 6) != '-' ||
        digit_run(i + 7) != 4) {
      return;
    }
    if (!numeric_end_ok(i + 11)) return;
    if (!us_ssn_valid(number_at(i, 3), number_at(i + 4, 2), number_at(i + 7, 4))) return;
    emit(i, i + 11, PiiEntity::kUsSsn);
  }

  // 13-19 digits, run together or in groups split by one space or dash (the same throughout):
  // the first group four digits, the others three to six ("4111 1111 1111 1111",
  // "3782 822463 10005"). The longest group prefix that passes Luhn with a known prefix wins.
  void try_card(size_t i) {
    char digits[20];
    size_t count = 0;
    size_t ends[20];
    size_t digit_counts[20];
    size_t group_lens[20];
    size_t groups = 0;
    char sep = 0;
    size_t p = i;
    while (groups < 20) {
      size_t len = digit_run(p);
      if (count + len > 19) break;
      std::memcpy(digits + count, t_.data() + p, len);
      count += len;
      p += len;
      group_lens[groups] = len;
      digit_counts[groups] = count;
      ends[groups] = p;
      ++groups;
      char c = at(p);
      if ((c == ' ' || c == '-') && (sep == 0 || sep == c) && is_digit(at(p + 1))) {
        sep = c;
        ++p;
      } else {
        break;
      }
    }
    if (groups == 0) return;
    if (sep == ' ' && follows_digit_group(i)) return;  // hex dumps: "2e54 4820 5858 4420 ..."
    for (size_t k = groups; k-- > 0;) {
      size_t d = digit_counts[k];
      if (d < 13) break;
      if (d > 19) continue;
      if (k == 0) {
        if (group_lens[0] != d) continue;
      } else {
        if (group_lens[0] != 4) break;
        bool ok = true;
        for (size_t g = 1; g <= k; ++g) {
          size_t len = group_lens[g];
          if (len > 6 || (g < k && len < 3)) ok = false;
        }
        if (!ok) continue;
      }
      if (!numeric_end_ok(ends[k])) continue;
      std::string_view number(digits, d);
      if (!card_prefix_known(number) || !luhn_valid(number)) continue;
      emit(i, ends[k], PiiEntity::kCreditCard);
      return;
    }
  }

  // North American numbers: [1 sep] (AAA) EEE-LLLL or AAA-EEE-LLLL (also '.' or ' '), area
  // and exchange starting 2-9 (NANP). Ten digits run together are not taken.
  void try_us_phone(size_t i) {
    size_t p = i;
    if (t_[p] == '1' && (at(p + 1) == '-' || at(p + 1) == ' ' || at(p + 1) == '.') &&
        (is_digit(at(p + 2)) || at(p + 2) == '(')) {
      p += 2;
    }
    char sep = 0;
    if (at(p) == '(') {
      if (digit_run(p + 1) != 3 || at(p + 4) != ')') return;
      if (at(p + 1) < '2') return;
      p += 5;
      if (at(p) == ' ') ++p;
    } else {
      if (digit_run(p) != 3 || at(p) < '2') return;
      sep = at(p + 3);
      if (sep != '-' && sep != '.' && sep != ' ') return;
      p += 4;
    }
    if (digit_run(p) != 3 || at(p) < '2') return;
    char sep2 = at(p + 3);
    if (sep2 != '-' && sep2 != '.' && sep2 != ' ') return;
    if (sep != 0 && sep2 != sep) return;
    p += 4;
    if (digit_run(p) != 4) return;
    p += 4;
    if (!numeric_end_ok(p)) return;
    if (sep2 == ' ' && (follows_digit_group(i) || continues(p, ' '))) return;
    emit(i, p, PiiEntity::kPhoneNumber);
  }

  // +CC then groups of digits split by one space, dash or dot, or in parentheses ("+1 (202)
  // 555-0143", "+44 (0)20 7946 0958", "+4915112345678"): 8 to 15 digits (E.164), the trunk
  // "(0)" not counted.
  void try_international_phone(size_t i) {
    if (at(i + 1) == '0') return;
    size_t p = i + 1;
    size_t digits = 0;
    size_t end = 0;
    while (true) {
      size_t q = p;
      bool paren = at(q) == '(';
      if (paren) ++q;
      size_t len = digit_run(q);
      if (len == 0) break;
      bool trunk = paren && len == 1 && t_[q] == '0';
      if (paren && at(q + len) != ')') break;
      if (!trunk && digits + len > 15) break;
      if (!trunk) digits += len;
      q += len + (paren ? 1 : 0);
      p = q;
      if (!trunk) end = p;
      char c = at(p);
      if ((c == ' ' || c == '-' || c == '.') && (is_digit(at(p + 1)) || at(p + 1) == '(')) {
        ++p;
      } else if (!(c == '(' || (paren && is_digit(c)))) {
        break;
      }
    }
    // Run together ("+4915112345678") it needs ten digits, so that signed numbers such as
    // +32768000 are not taken; grouped, eight.
    bool grouped = false;
    for (size_t k = i + 1; k < end; ++k) grouped |= !is_digit(t_[k]);
    if (end == 0 || digits < (grouped ? 8u : 10u)) return;
    if (!numeric_end_ok(end)) return;
    emit(i, end, PiiEntity::kPhoneNumber);
  }

  // European national numbers: a trunk 0, then groups split by one space, dash, dot or slash
  // (the same throughout): "020 7946 0958", "06 12 34 56 78", "030/901820". The first group
  // two to five digits, the others two to eight, nine to twelve digits in all, at least two
  // groups (so plain integers and dates like 01.02.2024 are not taken).
  void try_national_phone(size_t i) {
    if (!is_digit(at(i + 1)) || at(i + 1) == '0') return;
    // Not a later group of a longer grouped number ("DE89 3704 0044 0532 0130 01").
    if (follows_digit_group(i)) return;
    size_t p = i;
    size_t digits = 0;
    size_t groups = 0;
    char sep = 0;
    size_t best = 0;
    size_t best_groups = 0;
    size_t first_len = 0, second_len = 0;
    while (true) {
      size_t len = digit_run(p);
      if (groups == 0 ? (len < 2 || len > 5) : (len < 2 || len > 8)) break;
      if (digits + len > 12) break;
      digits += len;
      p += len;
      ++groups;
      if (groups == 1) first_len = len;
      if (groups == 2) second_len = len;
      // The SSN layout (3-2-4 with dashes) is left to US_SSN, valid or not.
      bool ssn_shape = groups == 3 && sep == '-' && p - i == 11 && at(i + 6) == '-';
      if (groups >= 2 && digits >= 9 && numeric_end_ok(p) && !ssn_shape) {
        best = p;
        best_groups = groups;
      }
      char c = at(p);
      if ((c == ' ' || c == '-' || c == '.' || c == '/') && (sep == 0 || sep == c) &&
          is_digit(at(p + 1))) {
        sep = c;
        ++p;
      } else {
        break;
      }
    }
    if (!best || continues(best, sep)) return;
    // A US ZIP+4 code (02111-1307) is not a phone number.
    if (best_groups == 2 && first_len == 5 && second_len == 4) return;
    emit(i, best, PiiEntity::kPhoneNumber);
  }

  // Two letters of a country that issues IBANs, two check digits, then the BBAN (upper-case
  // letters and digits) to the country's length, run together or in groups of four split by
  // single spaces; mod-97 checked.
  void try_iban(size_t i) {
    int length = iban_country_length(t_.substr(i, 2));
    if (length == 0 || !is_digit(at(i + 2)) || !is_digit(at(i + 3))) return;
    char compact[34];
    size_t count = 0;
    size_t p = i;
    bool spaced = at(i + 4) == ' ';
    size_t group = 0;
    while (count < static_cast<size_t>(length)) {
      char c = at(p);
      if (is_upper(c) || is_digit(c)) {
        compact[count++] = c;
        ++p;
        ++group;
      } else if (spaced && c == ' ' && group == 4 && (is_upper(at(p + 1)) || is_digit(at(p + 1)))) {
        group = 0;
        ++p;
      } else {
        return;
      }
    }
    if (is_alnum(at(p))) return;
    if (!iban_checksum_valid(std::string_view(compact, count))) return;
    emit(i, p, PiiEntity::kIbanCode);
  }

  // local@domain: a local part of RFC 5322's common characters, a domain of at least two
  // labels whose last (the TLD) is letters only.
  void try_email(size_t a) {
    size_t s = a;
    while (s > 0 && is_local_char(t_[s - 1]) && a - s <= 64) --s;
    if (a - s > 64) return;
    while (s < a && t_[s] == '.') ++s;  // sentence dots before the address
    if (s == a || t_[a - 1] == '.') return;
    // A userinfo of a URL ("//token@host"): URL_CREDENTIALS' business, not an address.
    if (before(s) == '/') return;
    for (size_t k = s + 1; k < a; ++k) {
      if (t_[k] == '.' && t_[k - 1] == '.') return;
    }
    size_t p = a + 1;
    size_t labels = 0;
    size_t last_label = p;
    while (true) {
      size_t q = p;
      while (q < n_ && (is_alnum(t_[q]) || t_[q] == '-')) ++q;
      size_t len = q - p;
      if (len == 0 || len > 63 || t_[p] == '-' || t_[q - 1] == '-') {
        if (labels < 2) return;
        break;  // the dot before was punctuation
      }
      ++labels;
      last_label = p;
      p = q;
      if (at(p) == '.' && is_alnum(at(p + 1))) {
        ++p;
      } else {
        break;
      }
    }
    // p may sit after a '.' whose label was rejected: end at the last good label.
    size_t end = last_label;
    while (end < n_ && (is_alnum(t_[end]) || t_[end] == '-')) ++end;
    if (labels < 2 || end - (a + 1) > 253) return;
    std::string_view tld = t_.substr(last_label, end - last_label);
    bool punycode = tld.size() > 4 && (tld.substr(0, 4) == "xn--" || tld.substr(0, 4) == "XN--");
    if (!punycode) {
      if (tld.size() < 2) return;
      for (char c : tld) {
        if (!is_alpha(c)) return;
      }
    }
    char c = at(end);
    if (is_word(c) || c == '@') return;
    emit(s, end, PiiEntity::kEmailAddress);
  }

  // scheme://user:password@host[:port]: a URL whose userinfo has a password. The span is the
  // scheme to the host (the path is not personal data).
  void try_url_credentials(size_t colon) {
    size_t s = colon;
    while (s > 0 && (is_alnum(t_[s - 1]) || t_[s - 1] == '+' || t_[s - 1] == '.' ||
                     t_[s - 1] == '-')) {
      --s;
    }
    while (s < colon && !is_alpha(t_[s])) ++s;
    if (colon - s < 2 || is_word(before(s))) return;
    size_t u = colon + 3;
    size_t p = u;
    while (p < n_ && is_userinfo_char(t_[p]) && p - u <= 256) ++p;
    if (at(p) != '@' || p == u) return;
    std::string_view userinfo = t_.substr(u, p - u);
    size_t pass = userinfo.find(':');
    if (pass == std::string_view::npos || pass + 1 == userinfo.size()) return;
    size_t h = p + 1;
    size_t e = h;
    if (at(h) == '[') {
      while (e < n_ && e - h < 48 && t_[e] != ']') ++e;
      if (at(e) != ']') return;
      ++e;
    } else {
      while (e < n_ && (is_alnum(t_[e]) || t_[e] == '-' || t_[e] == '.')) ++e;
      while (e > h && t_[e - 1] == '.') --e;
      if (e == h) return;
    }
    if (at(e) == ':' && is_digit(at(e + 1))) e += 1 + digit_run(e + 1);
    emit(s, e, PiiEntity::kUrlCredentials);
  }

  // The run of hex digits, colons and dots around a ':' read as an IPv6 address (RFC 4291
  // text forms, an IPv4 tail allowed). "::1" and "::" (loopback, unspecified) identify nobody
  // and "a::b"-like runs are code, so at least four hex digits, one of them decimal, are asked.
  void try_ipv6(size_t colon) {
    size_t s = colon;
    while (s > 0 && (is_hex(t_[s - 1]) || t_[s - 1] == ':') && colon - s < 40) --s;
    size_t e = colon;
    while (e < n_ && (is_hex(t_[e]) || t_[e] == ':' || t_[e] == '.') && e - s < 46) ++e;
    ipv6_until_ = e;
    char p = before(s);
    if (is_word(p) || p == '.' || p == ':') return;
    if (is_word(at(e)) || at(e) == ':') return;
    while (e > s && t_[e - 1] == '.') --e;
    if (!ipv6_valid(t_.substr(s, e - s))) {
      if (e - s >= 2 && t_[e - 1] == ':' && t_[e - 2] != ':') {
        --e;
        if (!ipv6_valid(t_.substr(s, e - s))) return;
      } else {
        return;
      }
    }
    emit(s, e, PiiEntity::kIpAddress);
  }

  static bool ipv6_valid(std::string_view a) {
    size_t hex_digits = 0;
    bool decimal = false;
    size_t double_colon = a.find("::");
    if (double_colon != std::string_view::npos &&
        a.find("::", double_colon + 1) != std::string_view::npos) {
      return false;
    }
    int groups = 0;
    size_t p = 0;
    if (double_colon == 0) p = 2;
    while (p < a.size()) {
      size_t q = p;
      while (q < a.size() && is_hex(a[q])) ++q;
      if (q < a.size() && a[q] == '.') {
        // An IPv4 tail: the rest must be a dotted quad, worth two groups.
        std::string_view rest = a.substr(p);
        size_t end;
        if (!ipv4_text(rest, end) || end != rest.size()) return false;
        groups += 2;
        decimal = true;
        hex_digits += 4;
        p = a.size();
        break;
      }
      size_t len = q - p;
      if (len == 0 || len > 4) return false;
      for (size_t k = p; k < q; ++k) decimal |= is_digit(a[k]);
      hex_digits += len;
      ++groups;
      p = q;
      if (p == a.size()) break;
      if (a[p] != ':') return false;
      if (p == double_colon) {
        p += 2;
        if (p == a.size()) break;
      } else {
        ++p;
        if (p == a.size()) return false;  // a lone trailing colon
      }
    }
    if (double_colon == std::string_view::npos) {
      if (groups != 8) return false;
    } else if (groups > 7) {
      return false;
    } else if (double_colon + 2 == a.size() && groups < 2) {
      return false;  // "2004::" is a number before reStructuredText's "::", not an address
    }
    return decimal && hex_digits >= 4;
  }

  static bool ipv4_text(std::string_view a, size_t& end) {
    size_t p = 0;
    for (int octet = 0; octet < 4; ++octet) {
      size_t q = p;
      while (q < a.size() && is_digit(a[q])) ++q;
      size_t len = q - p;
      if (len == 0 || len > 3 || (len > 1 && a[p] == '0')) return false;
      int v = 0;
      for (size_t k = p; k < q; ++k) v = v * 10 + (a[k] - '0');
      if (v > 255) return false;
      p = q;
      if (octet < 3) {
        if (p >= a.size() || a[p] != '.') return false;
        ++p;
      }
    }
    end = p;
    return true;
  }

  std::string_view t_;
  size_t n_;
  PiiEntityMask want_;
  std::vector<Candidate>& out_;
  size_t ipv6_until_ = 0;
};

// Equal spans (same start, same length) go to the kind with the stricter check.
int tie_rank(PiiEntity e) {
  switch (e) {
    case PiiEntity::kUrlCredentials: return 0;
    case PiiEntity::kEmailAddress: return 1;
    case PiiEntity::kIbanCode: return 2;
    case PiiEntity::kCreditCard: return 3;
    case PiiEntity::kUsSsn: return 4;
    case PiiEntity::kIpAddress: return 5;
    case PiiEntity::kPhoneNumber: return 6;
    case PiiEntity::kPerson:
    case PiiEntity::kLocation:
    case PiiEntity::kOrganization: break;  // the model's, never a scanner's candidate
  }
  return 7;
}

// Overlapping candidates: the longest wins, then the earliest, then the stricter kind; the
// others go.
void resolve(std::vector<Candidate>& candidates, std::vector<PiiSpan>& out) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end > b.end;
    return tie_rank(a.entity) < tie_rank(b.entity);
  });
  bool overlap = false;
  for (size_t k = 1; k < candidates.size(); ++k) {
    if (candidates[k].begin < candidates[k - 1].end) overlap = true;
  }
  if (overlap) {
    std::vector<Candidate> by_priority = candidates;
    std::stable_sort(by_priority.begin(), by_priority.end(),
                     [](const Candidate& a, const Candidate& b) {
                       size_t la = a.end - a.begin, lb = b.end - b.begin;
                       if (la != lb) return la > lb;
                       if (a.begin != b.begin) return a.begin < b.begin;
                       return tie_rank(a.entity) < tie_rank(b.entity);
                     });
    std::vector<Candidate> taken;  // kept sorted by begin
    for (const Candidate& c : by_priority) {
      auto next = std::lower_bound(taken.begin(), taken.end(), c.begin,
                                   [](const Candidate& x, size_t b) { return x.begin < b; });
      if (next != taken.end() && next->begin < c.end) continue;
      if (next != taken.begin() && std::prev(next)->end > c.begin) continue;
      taken.insert(next, c);
    }
    candidates.swap(taken);
  }
  out.clear();
  for (const Candidate& c : candidates) out.push_back({c.begin, c.end, c.entity});
}

}  // namespace

std::string_view pii_entity_name(PiiEntity entity) {
  return kEntityNames[static_cast<size_t>(entity)];
}

std::optional<PiiEntity> pii_entity_from_name(std::string_view name) {
  for (size_t k = 0; k < kPiiEntityCount; ++k) {
    if (kEntityNames[k] == name) return static_cast<PiiEntity>(k);
  }
  return std::nullopt;
}

void find_pii(std::string_view text, PiiEntityMask entities, std::vector<PiiSpan>& out) {
  thread_local std::vector<Candidate> candidates;
  candidates.clear();
  Scanner(text, entities, candidates).run();
  resolve(candidates, out);
}

bool luhn_valid(std::string_view digits) {
  if (digits.empty()) return false;
  int sum = 0;
  bool twice = false;
  for (size_t k = digits.size(); k-- > 0;) {
    char c = digits[k];
    if (!is_digit(c)) return false;
    int d = c - '0';
    if (twice) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

char luhn_check_digit(std::string_view digits) {
  int sum = 0;
  bool twice = true;  // the check digit will sit to the right
  for (size_t k = digits.size(); k-- > 0;) {
    int d = digits[k] - '0';
    if (twice) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    twice = !twice;
  }
  return static_cast<char>('0' + (10 - sum % 10) % 10);
}

int iban_country_length(std::string_view cc) {
  // The IBAN registry's countries and lengths (SWIFT's IBAN Registry).
  struct Country {
    char code[3];
    int length;
  };
  static constexpr Country kCountries[] = {
      {"AD", 24}, {"AE", 23}, {"AL", 28}, {"AT", 20}, {"AZ", 28}, {"BA", 20}, {"BE", 16},
      {"BG", 22}, {"BH", 22}, {"BI", 27}, {"BR", 29}, {"BY", 28}, {"CH", 21}, {"CR", 22},
      {"CY", 28}, {"CZ", 24}, {"DE", 22}, {"DJ", 27}, {"DK", 18}, {"DO", 28}, {"EE", 20},
      {"EG", 29}, {"ES", 24}, {"FI", 18}, {"FK", 18}, {"FO", 18}, {"FR", 27}, {"GB", 22},
      {"GE", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27}, {"GT", 28}, {"HR", 21}, {"HU", 28},
      {"IE", 22}, {"IL", 23}, {"IQ", 23}, {"IS", 26}, {"IT", 27}, {"JO", 30}, {"KW", 30},
      {"KZ", 20}, {"LB", 28}, {"LC", 32}, {"LI", 21}, {"LT", 20}, {"LU", 20}, {"LV", 21},
      {"LY", 25}, {"MC", 27}, {"MD", 24}, {"ME", 22}, {"MK", 19}, {"MN", 20}, {"MR", 27},
      {"MT", 31}, {"MU", 30}, {"NI", 28}, {"NL", 18}, {"NO", 15}, {"OM", 23}, {"PK", 24},
      {"PL", 28}, {"PS", 29}, {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"RU", 33},
      {"SA", 24}, {"SC", 31}, {"SD", 18}, {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27},
      {"SO", 23}, {"ST", 25}, {"SV", 28}, {"TL", 23}, {"TN", 24}, {"TR", 26}, {"UA", 29},
      {"VA", 22}, {"VG", 24}, {"XK", 20}, {"YE", 30},
  };
  if (cc.size() != 2) return 0;
  for (const Country& c : kCountries) {
    if (c.code[0] == cc[0] && c.code[1] == cc[1]) return c.length;
  }
  return 0;
}

int iban_mod97(std::string_view compact) {
  if (compact.size() < 5) return -1;
  int r = 0;
  auto feed = [&r](char c) -> bool {
    if (is_digit(c)) {
      r = (r * 10 + (c - '0')) % 97;
    } else if (is_upper(c)) {
      r = (r * 100 + (c - 'A' + 10)) % 97;
    } else {
      return false;
    }
    return true;
  };
  for (size_t k = 4; k < compact.size(); ++k) {
    if (!feed(compact[k])) return -1;
  }
  for (size_t k = 0; k < 4; ++k) {
    if (!feed(compact[k])) return -1;
  }
  return r;
}

bool iban_checksum_valid(std::string_view compact) {
  if (compact.size() < 5 || iban_country_length(compact.substr(0, 2)) != int(compact.size())) {
    return false;
  }
  return iban_mod97(compact) == 1;
}

bool card_prefix_known(std::string_view d) {
  size_t n = d.size();
  if (n < 13 || n > 19) return false;
  auto prefix = [&d](size_t len) {
    int v = 0;
    for (size_t k = 0; k < len; ++k) v = v * 10 + (d[k] - '0');
    return v;
  };
  int p1 = prefix(1), p2 = prefix(2), p3 = prefix(3), p4 = prefix(4), p6 = prefix(6);
  if (p1 == 4) return n == 13 || n == 16 || n == 19;                          // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n == 16;  // Mastercard
  if (p2 == 34 || p2 == 37) return n == 15;                                   // Amex
  if (p4 == 6011 || (p3 >= 644 && p3 <= 649) || p2 == 65 || (p6 >= 622126 && p6 <= 622925)) {
    return n >= 16;  // Discover
  }
  if ((p3 >= 300 && p3 <= 305) || p4 == 3095 || p2 == 36 || p2 == 38 || p2 == 39) {
    return n >= 14;  // Diners Club
  }
  if (p4 >= 3528 && p4 <= 3589) return n >= 16;  // JCB
  if (p2 == 62) return n >= 16;                   // UnionPay
  if (p2 == 50 || (p2 >= 56 && p2 <= 58) || p4 == 6304 || p4 == 6759 || p6 == 676770 ||
      p6 == 676774) {
    return true;  // Maestro (12-19; 13-19 here)
  }
  return false;
}

bool us_ssn_valid(int area, int group, int serial) {
  if (area == 0 || area == 666 || area >= 900) return false;
  return group != 0 && serial != 0;
}

}  // namespace winnow
