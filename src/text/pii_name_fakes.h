#pragma once
// Stand-ins for the named entities the `pii_redact` stage's model finds (PERSON, LOCATION,
// ORGANIZATION), for its `replace` action: drawn from short built-in lists by a seeded hash of
// the original (text/pii_fakes.h makes the draws), so one name becomes the same stand-in
// everywhere. The lists are invented or generic names, not a sample of real people.
#include <cstdint>
#include <string>
#include <string_view>

#include "text/pii_detectors.h"

namespace winnow {

// Appends a stand-in for `original` (an entity of kind `entity`, one of the three above) drawn
// by `draw` (uniform 64-bit values): a person of one word gets a surname, of more words a
// first name and a surname; a location a city name; an organisation a name and a suffix.
void append_name_fake(PiiEntity entity, std::string_view original, uint64_t draw, std::string& out);

}  // namespace winnow
