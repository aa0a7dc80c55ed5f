#pragma once
// DuckDB is loaded on first use, not at program start (io/duckdb_library.cpp): a run that reads
// and writes no Parquet never maps it. DuckdbSession::open asks for it and reports a library
// that cannot be loaded; every other DuckDB call comes after a session was opened.
#include "core/status.h"

namespace winnow {

// Loads DuckDB if no call has yet: ok, or why it cannot be loaded (asked once; the answer is
// kept).
Status load_duckdb();

// Whether this process has asked for DuckDB yet (tests check the decision).
bool duckdb_requested();

}  // namespace winnow
