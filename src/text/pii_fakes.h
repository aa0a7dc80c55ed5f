#pragma once
// Stable stand-ins for detected personal data (the `pii_redact` stage's `replace` and `hash`
// actions): drawn from a seeded hash of the original, so one value becomes the same stand-in
// wherever it appears, in any run with the same seed, whatever the threads or batches.
#include <cstdint>
#include <string>
#include <string_view>

#include "text/pii_detectors.h"

namespace winnow {

// Appends to `out` a fake of the same kind as `original` (found as `entity`) that the
// detectors take for that kind again: an e-mail at example.com/.net/.org; a phone number in
// the original's layout, its country code or trunk 0 kept; an IPv4 address (or one of
// 2001:db8::/32, the documentation prefix); a card number with the original's issuer prefix
// (six digits) and layout, Luhn-valid; an IBAN of the same country and layout with valid check
// digits; an SSN in the SSA's valid ranges; the URL with a fake user and password; a person, location
// or organisation from text/pii_name_fakes.h.
void append_pii_fake(PiiEntity entity, std::string_view original, uint64_t seed,
                     std::string& out);

// Appends the first 16 hex digits of a seeded 64-bit hash (XXH3) of `original`. Not a secret
// keyed digest: whoever knows the seed can test guesses (an SSN has 10^9 values).
void append_pii_hash(std::string_view original, uint64_t seed, std::string& out);

}  // namespace winnow
