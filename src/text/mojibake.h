#pragma once
// Repair of the most common mojibake: UTF-8 text that was decoded as Windows-1252 (or Latin-1)
// and encoded to UTF-8 again, so "Café" reads "CafÃ©" and "’" reads "â€™". Each such sequence
// maps back to the UTF-8 bytes it came from; the repair is applied only when it is clearly right.
#include <cstddef>
#include <string>
#include <string_view>

namespace winnow {

// Sequences in `utf8` (valid UTF-8) that read as the Windows-1252 decoding of a UTF-8 encoded
// character likely to occur in text: a lead character (Â…ô) followed by the right number of
// continuation characters whose bytes form a valid UTF-8 sequence. Rare decodings (C1 controls,
// IPA, NKo, private use...) are not counted, so legitimate text like "muß…" is left alone.
size_t count_mojibake(std::string_view utf8);

// Repairs every counted sequence, repeating for text encoded twice or three times. Returns true
// and sets `out` only when the text changed and no counted sequence remains; otherwise `out` is
// left untouched and the text should be kept as it is.
bool repair_mojibake(std::string_view utf8, std::string& out);

}  // namespace winnow
