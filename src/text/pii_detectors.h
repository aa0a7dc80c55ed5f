#pragma once
// Rule-based detectors of personal data in text (the `pii_redact` stage): e-mail addresses,
// phone numbers, IPv4/IPv6 addresses, payment card numbers, IBANs, US social security numbers
// and URLs that carry credentials. One pass over the bytes: only cheap anchor characters
// (digits, '+', '(', '@', ':') start a hand-written scanner, and each scanner validates what it
// read (octet ranges, Luhn, IBAN mod-97 and country lengths, the SSA's ranges), so that dates,
// version numbers, ISBNs and plain long integers are not taken.
//
// Entity names are Presidio's (EMAIL_ADDRESS, PHONE_NUMBER, IP_ADDRESS, CREDIT_CARD, IBAN_CODE,
// US_SSN), as NeMo Curator's PiiModifier names them; URL_CREDENTIALS is ours (Presidio's URL
// entity is any URL).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace winnow {

enum class PiiEntity : uint8_t {
  kEmailAddress,
  kPhoneNumber,
  kIpAddress,
  kCreditCard,
  kIbanCode,
  kUsSsn,
  kUrlCredentials,
  // Found by the optional named-entity model (text/ner_spans.h), not by the scanners here.
  kPerson,
  kLocation,
  kOrganization,
};
inline constexpr size_t kPiiEntityCount = 10;
inline constexpr size_t kRulePiiEntityCount = 7;  // the scanners' entities come first

// "EMAIL_ADDRESS", "PHONE_NUMBER", ..., "PERSON", "LOCATION", "ORGANIZATION".
std::string_view pii_entity_name(PiiEntity entity);
std::optional<PiiEntity> pii_entity_from_name(std::string_view name);

// A set of entities, one bit each.
using PiiEntityMask = uint32_t;
inline constexpr PiiEntityMask pii_bit(PiiEntity entity) {
  return PiiEntityMask{1} << static_cast<unsigned>(entity);
}
inline constexpr PiiEntityMask kAllPiiEntities = (PiiEntityMask{1} << kPiiEntityCount) - 1;
// The entities find_pii scans for, and those only a named-entity model finds.
inline constexpr PiiEntityMask kRulePiiEntities = (PiiEntityMask{1} << kRulePiiEntityCount) - 1;
inline constexpr PiiEntityMask kNerPiiEntities = kAllPiiEntities & ~kRulePiiEntities;

struct PiiSpan {
  size_t begin = 0;  // byte offsets into the text
  size_t end = 0;
  PiiEntity entity = PiiEntity::kEmailAddress;
  bool operator==(const PiiSpan&) const = default;
};

// The rule entities of `entities` found in `text`, replacing `out`: non-overlapping, in text order.
// Where candidates overlap, the longest wins, then the earliest.
void find_pii(std::string_view text, PiiEntityMask entities, std::vector<PiiSpan>& out);

// The validators the scanners use, for tests and for making valid fakes.
// Luhn's check over a string of decimal digits (false for any other character or none).
bool luhn_valid(std::string_view digits);
// The Luhn check digit that completes `digits` (the payload without its check digit).
char luhn_check_digit(std::string_view digits);
// IBAN: the length its country code gives (0: not a country that issues IBANs).
int iban_country_length(std::string_view country_code);
// The ISO 7064 mod-97 check of a compact IBAN (upper-case letters and digits, no spaces):
// the first four characters moved to the end, letters as 10..35, the number mod 97 is 1.
bool iban_checksum_valid(std::string_view compact);
// The remainder mod 97 of a compact IBAN's rearranged number (check digits = 98 - it when
// computed with "00" as the check digits).
int iban_mod97(std::string_view compact);
// Whether a payment card number of these digits has a known issuer prefix for its length.
bool card_prefix_known(std::string_view digits);
// The SSA's rules: area not 000, 666 or 900-999; group not 00; serial not 0000.
bool us_ssn_valid(int area, int group, int serial);

}  // namespace winnow
