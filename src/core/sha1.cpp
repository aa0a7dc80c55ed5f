#include "core/sha1.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace winnow {

Sha1Digest sha1(std::string_view bytes) {
  Sha1Digest digest{};
  unsigned int size = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha1(), nullptr) ||
      size != digest.size()) {
    throw std::runtime_error("OpenSSL's SHA-1 failed");  // only if libcrypto itself is broken
  }
  return digest;
}

}  // namespace winnow
