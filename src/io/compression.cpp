#include "io/compression.h"

namespace winnow {

Compression detect_compression(std::string_view b) {
  if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f &&
      static_cast<unsigned char>(b[1]) == 0x8b) {
    return Compression::kGzip;
  }
  if (b.size() >= 4 && b.substr(0, 4) == std::string_view("\x28\xb5\x2f\xfd", 4)) {
    return Compression::kZstd;
  }
  // "BZh" and the block size digit 1-9.
  if (b.size() >= 4 && b.substr(0, 3) == "BZh" && b[3] >= '1' && b[3] <= '9') {
    return Compression::kBzip2;
  }
  return Compression::kNone;
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kZstd:
      return "zstd";
    case Compression::kBzip2:
      return "bzip2";
  }
  return "?";
}

std::optional<Compression> compression_from_format(std::string_view format) {
  if (format == "jsonl") return Compression::kNone;
  if (format == "jsonl.gz") return Compression::kGzip;
  if (format == "jsonl.zst") return Compression::kZstd;
  return std::nullopt;
}

std::string_view format_extension(Compression c) {
  switch (c) {
    case Compression::kNone:
      return ".jsonl";
    case Compression::kGzip:
      return ".jsonl.gz";
    case Compression::kZstd:
      return ".jsonl.zst";
    case Compression::kBzip2:
      return ".jsonl.bz2";  // never written: no output format names bzip2
  }
  return ".jsonl";
}

}  // namespace winnow
