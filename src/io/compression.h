#pragma once
// Compression kinds of JSONL shards. Reading detects the kind from the first bytes (magic),
// never from the name alone; writing takes it from the configured format.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

enum class Compression { kNone, kGzip, kZstd };

Compression detect_compression(std::string_view first_bytes);
std::string_view compression_name(Compression c);
// "jsonl", "jsonl.gz", "jsonl.zst" -> compression; nullopt for anything else.
std::optional<Compression> compression_from_format(std::string_view format);
std::string_view format_extension(Compression c);  // ".jsonl", ".jsonl.gz", ".jsonl.zst"

}  // namespace winnow
