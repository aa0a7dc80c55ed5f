#pragma once
// SHA-1 (FIPS 180-4), for checking the digests WARC writers record (WARC-Block-Digest,
// WARC-Payload-Digest); never as a secure hash. OpenSSL's libcrypto does the work (with the
// SHA extensions where the CPU has them); this header keeps it out of every other file.
#include <array>
#include <cstdint>
#include <string_view>

namespace winnow {

using Sha1Digest = std::array<uint8_t, 20>;

Sha1Digest sha1(std::string_view bytes);

}  // namespace winnow
