#pragma once
// The type a Parquet column's values travel as through a record's JSON, so that Parquet in →
// JSON record → Parquet out gives back the same values, bit for bit.
//
// Most types come back exactly from their JSON form (DuckDB's json_object on reading, its
// read_json with the column's type on writing). These do not, and travel as VARCHAR (DuckDB's
// text form, which its cast back to the type undoes exactly), at any depth inside lists,
// arrays, structs and maps:
//   BLOB                  read_json would take the escaped text ("\xFF") as the bytes
//   DECIMAL(p, s), p > 15 read_json goes through a double, which holds 15 digits
//   HUGEINT, UHUGEINT,    past 64 bits, or not a JSON number at all
//   BIT, BIGNUM
// The rest of the type is kept, so lists stay JSON arrays and structs JSON objects: a
// STRUCT(a BLOB, b INTEGER[]) travels as STRUCT(a VARCHAR, b INTEGER[]).
//
// nullopt when the type cannot be named back to DuckDB: a struct with unnamed fields (how
// DuckDB reads a UNION column from Parquet: STRUCT(UTINYINT, INTEGER, VARCHAR)), or a type
// this parser does not follow.
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

std::optional<std::string> json_transport_type(std::string_view duckdb_type);

}  // namespace winnow
