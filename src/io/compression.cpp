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
  }
  return ".jsonl";
}

}  // namespace winnow
