#pragma once
// The kinds of bad input a reader can meet. Names are stable: they appear in stats.json and
// errors/ records, and users grep for them.
#include <cstdint>
#include <string_view>

namespace winnow {

enum class InputError : uint8_t {
  kMalformedJson,
  kNotAnObject,
  kMissingText,
  kTextNotString,
  kInvalidId,
  kInvalidUtf8,
  kLineTooLong,
  kEmptyFile,
  kUnreadableFile,
  kCorruptCompressed,
  kTruncatedCompressed,
  // WARC input
  kCorruptWarc,
  kTruncatedWarc,
  kRecordTooLarge,
  // media files
  kUnknownMedia,
  // Parquet input: a file without Parquet's magic bytes, one cut short (no footer), one whose
  // metadata or pages DuckDB cannot read
  kNotParquet,
  kTruncatedParquet,
  kCorruptParquet,
};
inline constexpr int kInputErrorCount = 18;

constexpr std::string_view input_error_name(InputError e) {
  switch (e) {
    case InputError::kMalformedJson:
      return "malformed_json";
    case InputError::kNotAnObject:
      return "not_an_object";
    case InputError::kMissingText:
      return "missing_text";
    case InputError::kTextNotString:
      return "text_not_string";
    case InputError::kInvalidId:
      return "invalid_id";
    case InputError::kInvalidUtf8:
      return "invalid_utf8";
    case InputError::kLineTooLong:
      return "line_too_long";
    case InputError::kEmptyFile:
      return "empty_file";
    case InputError::kUnreadableFile:
      return "unreadable_file";
    case InputError::kCorruptCompressed:
      return "corrupt_compressed";
    case InputError::kTruncatedCompressed:
      return "truncated_compressed";
    case InputError::kCorruptWarc:
      return "corrupt_warc";
    case InputError::kTruncatedWarc:
      return "truncated_warc";
    case InputError::kRecordTooLarge:
      return "record_too_large";
    case InputError::kUnknownMedia:
      return "unknown_media";
    case InputError::kNotParquet:
      return "not_parquet";
    case InputError::kTruncatedParquet:
      return "truncated_parquet";
    case InputError::kCorruptParquet:
      return "corrupt_parquet";
  }
  return "unknown";
}

}  // namespace winnow
