#pragma once
// WarcDigest: the value of a WARC-Block-Digest or WARC-Payload-Digest field, "sha1:" and the
// 20-byte SHA-1 in base32 (RFC 4648, as wget, Heritrix and Common Crawl write it) or in hex
// (some other writers), and the check of bytes against it. Other algorithms are not checked.
#include <optional>
#include <string>
#include <string_view>

#include "core/sha1.h"

namespace winnow {

class WarcDigest {
 public:
  // nullopt for an algorithm other than sha1 or a value that is not 32 base32 or 40 hex
  // characters: such a digest cannot be checked (it is not an error in itself).
  static std::optional<WarcDigest> parse(std::string_view field_value);

  bool matches(std::string_view bytes) const { return sha1(bytes) == digest_; }
  const Sha1Digest& digest() const { return digest_; }

 private:
  Sha1Digest digest_{};
};

// RFC 4648 base32 (upper case, '=' padded), the form WARC digests take.
std::string base32_encode(std::string_view bytes);
// "sha1:" + base32: how a digest is named in messages.
std::string warc_digest_text(const Sha1Digest& digest);

}  // namespace winnow
