#pragma once
// Numbers that are valid JSON but that simdjson refuses: integers past 64 bits
// (18446744073709551616, -9223372036854775809) and numbers past a double's range (1e400).
// Valid JSON is never an error in winnow: a record holding such a number is parsed from a copy
// in which each of them is a JSON string of its text, so every field reads as usual and the wide
// number reads as that string. The record's own bytes keep the number: JSON Lines output writes
// it back unchanged, and Parquet output types its column JSON, holding the number's text
// (io/json_column_types.h).
#include <simdjson.h>

#include <string>
#include <string_view>

namespace winnow {

// Copies `json` to `out` (replacing its contents) with every such number quoted; false when
// there was none (out is then unspecified). A token that is not a valid JSON number (01, 1.,
// -) is left alone, so a malformed record stays malformed.
bool quote_wide_numbers(std::string_view json, std::string& out);

// Parses a record, followed in memory by kRecordPadding bytes as a batch's records are, into
// `root`; when simdjson refuses a number, parses the quoted copy instead (root then refers to the
// copy's values, which live in `parser` as usual). The error is simdjson's for the record itself
// when the copy does not parse either, or holds no wide number.
simdjson::error_code parse_record(simdjson::dom::parser& parser, std::string_view record,
                                  simdjson::dom::element& root);

}  // namespace winnow
