// normalize_for_word_shingles (text/dedup_normalizer.h) in a GPU-only build made without
// utf8proc and ICU (cmake/gpu_only.cmake): word shingles need them, so asking for them stops the
// program with the reason instead of hashing unnormalised words. The GPU tests skip the
// word-shingle cases in such a build; the device's kernels are the same for both kinds (word
// shingles reach it as the host's hashes, as non-ASCII character shingles do).
#include <cstdio>
#include <cstdlib>

#include "text/dedup_normalizer.h"

namespace winnow {

void normalize_for_word_shingles(std::string_view, std::string&) {
  std::fprintf(stderr,
               "winnow: word shingles need utf8proc and ICU, which this GPU-only build was made "
               "without\n");
  std::abort();
}

}  // namespace winnow
