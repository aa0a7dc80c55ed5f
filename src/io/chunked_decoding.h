#pragma once
// decode_chunked: undoes HTTP/1.1's chunked transfer coding (RFC 9112 §7.1) of a body kept
// in a WARC response record. Crawlers store bodies as they came off the wire, often cut short,
// so decoding is lenient: it keeps what the chunks hold up to the first size line that does not
// start with a hex digit, the last (zero) chunk, or the end of the data, whichever comes first.
#include <cstddef>
#include <string>

namespace winnow {

// Replaces body[from, end) (the chunked body; what is before `from`, the HTTP head, stays)
// with the bytes its chunks carry. A size is the hex digits a size line starts with (what
// follows them, chunk extensions like ";name=value" included, is ignored); trailers are
// dropped; a chunk longer than the data left is cut there. Size lines may end in CRLF or a bare
// LF, and every CR and LF right after chunk data is passed over.
void decode_chunked(std::string& body, size_t from);

}  // namespace winnow
