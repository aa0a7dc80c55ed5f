// DuckDB's C API, loaded with dlopen on first use. Resolving libduckdb.so's relocations costs
// about 24 ms of CPU in every process that links it (bench/README.md, "Fixed cost per process"),
// and most runs read and write no Parquet. So nothing links the library: this file defines each
// DuckDB function winnow calls (the declarations are duckdb.h's) as a call through the function
// of that name looked up in the loaded library. The build's and the install's RUNPATH name
// DuckDB's folder (CMakeLists.txt), and dlopen searches the caller's RUNPATH.
//
// A function missing from the library (another DuckDB version) is a clear message and an abort
// at its first call (core/lazy_library.h); all of these exist since DuckDB 1.1.
#include "io/duckdb_library.h"

#include <duckdb.h>

#include "core/lazy_library.h"

namespace winnow {
namespace {

LazyLibrary& duckdb_library() {
  static LazyLibrary library("libduckdb.so", "DuckDB");
  return library;
}

}  // namespace

Status load_duckdb() { return duckdb_library().load(); }

bool duckdb_requested() { return duckdb_library().requested(); }

}  // namespace winnow

// One definition per function: the looked-up pointer, kept after the first call.
#define WINNOW_DUCKDB_CALL(name, ...)                                                       \
  static const auto function = winnow::duckdb_library().function<decltype(&::name)>(#name); \
  return function(__VA_ARGS__)

extern "C" {

duckdb_state duckdb_create_config(duckdb_config* out_config) {
  WINNOW_DUCKDB_CALL(duckdb_create_config, out_config);
}
duckdb_state duckdb_set_config(duckdb_config config, const char* name, const char* option) {
  WINNOW_DUCKDB_CALL(duckdb_set_config, config, name, option);
}
void duckdb_destroy_config(duckdb_config* config) {
  WINNOW_DUCKDB_CALL(duckdb_destroy_config, config);
}
duckdb_state duckdb_open_ext(const char* path, duckdb_database* out_database, duckdb_config config,
                             char** out_error) {
  WINNOW_DUCKDB_CALL(duckdb_open_ext, path, out_database, config, out_error);
}
duckdb_state duckdb_open(const char* path, duckdb_database* out_database) {
  WINNOW_DUCKDB_CALL(duckdb_open, path, out_database);
}
void duckdb_close(duckdb_database* database) { WINNOW_DUCKDB_CALL(duckdb_close, database); }
duckdb_state duckdb_connect(duckdb_database database, duckdb_connection* out_connection) {
  WINNOW_DUCKDB_CALL(duckdb_connect, database, out_connection);
}
void duckdb_disconnect(duckdb_connection* connection) {
  WINNOW_DUCKDB_CALL(duckdb_disconnect, connection);
}
void duckdb_free(void* ptr) { WINNOW_DUCKDB_CALL(duckdb_free, ptr); }

duckdb_state duckdb_query(duckdb_connection connection, const char* query,
                          duckdb_result* out_result) {
  WINNOW_DUCKDB_CALL(duckdb_query, connection, query, out_result);
}
void duckdb_destroy_result(duckdb_result* result) {
  WINNOW_DUCKDB_CALL(duckdb_destroy_result, result);
}
const char* duckdb_result_error(duckdb_result* result) {
  WINNOW_DUCKDB_CALL(duckdb_result_error, result);
}
idx_t duckdb_row_count(duckdb_result* result) { WINNOW_DUCKDB_CALL(duckdb_row_count, result); }
idx_t duckdb_column_count(duckdb_result* result) {
  WINNOW_DUCKDB_CALL(duckdb_column_count, result);
}
double duckdb_value_double(duckdb_result* result, idx_t col, idx_t row) {
  WINNOW_DUCKDB_CALL(duckdb_value_double, result, col, row);
}
int64_t duckdb_value_int64(duckdb_result* result, idx_t col, idx_t row) {
  WINNOW_DUCKDB_CALL(duckdb_value_int64, result, col, row);
}
char* duckdb_value_varchar(duckdb_result* result, idx_t col, idx_t row) {
  WINNOW_DUCKDB_CALL(duckdb_value_varchar, result, col, row);
}

duckdb_state duckdb_prepare(duckdb_connection connection, const char* query,
                            duckdb_prepared_statement* out_prepared_statement) {
  WINNOW_DUCKDB_CALL(duckdb_prepare, connection, query, out_prepared_statement);
}
const char* duckdb_prepare_error(duckdb_prepared_statement prepared_statement) {
  WINNOW_DUCKDB_CALL(duckdb_prepare_error, prepared_statement);
}
void duckdb_destroy_prepare(duckdb_prepared_statement* prepared_statement) {
  WINNOW_DUCKDB_CALL(duckdb_destroy_prepare, prepared_statement);
}
duckdb_state duckdb_pending_prepared_streaming(duckdb_prepared_statement prepared_statement,
                                               duckdb_pending_result* out_result) {
  WINNOW_DUCKDB_CALL(duckdb_pending_prepared_streaming, prepared_statement, out_result);
}
const char* duckdb_pending_error(duckdb_pending_result pending_result) {
  WINNOW_DUCKDB_CALL(duckdb_pending_error, pending_result);
}
duckdb_state duckdb_execute_pending(duckdb_pending_result pending_result,
                                    duckdb_result* out_result) {
  WINNOW_DUCKDB_CALL(duckdb_execute_pending, pending_result, out_result);
}
void duckdb_destroy_pending(duckdb_pending_result* pending_result) {
  WINNOW_DUCKDB_CALL(duckdb_destroy_pending, pending_result);
}

duckdb_data_chunk duckdb_fetch_chunk(duckdb_result result) {
  WINNOW_DUCKDB_CALL(duckdb_fetch_chunk, result);
}
void duckdb_destroy_data_chunk(duckdb_data_chunk* chunk) {
  WINNOW_DUCKDB_CALL(duckdb_destroy_data_chunk, chunk);
}
idx_t duckdb_data_chunk_get_size(duckdb_data_chunk chunk) {
  WINNOW_DUCKDB_CALL(duckdb_data_chunk_get_size, chunk);
}
duckdb_vector duckdb_data_chunk_get_vector(duckdb_data_chunk chunk, idx_t col_idx) {
  WINNOW_DUCKDB_CALL(duckdb_data_chunk_get_vector, chunk, col_idx);
}
void* duckdb_vector_get_data(duckdb_vector vector) {
  WINNOW_DUCKDB_CALL(duckdb_vector_get_data, vector);
}
const char* duckdb_string_t_data(duckdb_string_t* string) {
  WINNOW_DUCKDB_CALL(duckdb_string_t_data, string);
}
uint32_t duckdb_string_t_length(duckdb_string_t string) {
  WINNOW_DUCKDB_CALL(duckdb_string_t_length, string);
}

}  // extern "C"
