#pragma once
// Compression kinds of input and output files. Reading detects the kind from the first bytes
// (magic), never from the name alone; writing takes it from the configured format. bzip2 is read
// only (Wikipedia dumps): no output format names it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

Compression detect_compression(std::string_view first_bytes);
std::string_view compression_name(Compression c);
// "jsonl", "jsonl.gz", "jsonl.zst" -> compression; nullopt for anything else.
std::optional<Compression> compression_from_format(std::string_view format);
std::string_view format_extension(Compression c);  // ".jsonl", ".jsonl.gz", ".jsonl.zst"

}  // namespace winnow
