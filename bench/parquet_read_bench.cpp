// Parquet reading: `winnow run` with no stages from a zstd Parquet file to JSONL, against
// DuckDB's own `COPY (SELECT * FROM read_parquet(...)) TO ... (FORMAT json)` on the same file in
// the same run (both on one thread), and winnow's peak RSS. Needs GNU time at /usr/bin/time.
//
// Usage: build/bench/parquet_read_bench [WINNOW=build/winnow] [WORK_DIR=build/bench/parquet]
//                                       [ROWS=500000]
// The file is generated with DuckDB (id, text of about 560 characters, a bucket number, a
// double, a timestamp and a list per row) and reused when present.
#include <duckdb.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Db {
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
  Db() {
    if (duckdb_open(nullptr, &database) == DuckDBError ||
        duckdb_connect(database, &connection) == DuckDBError) {
      throw std::runtime_error("DuckDB failed to start");
    }
  }
  ~Db() {
    duckdb_disconnect(&connection);
    duckdb_close(&database);
  }
  double number(const std::string& sql) {
    duckdb_result result;
    if (duckdb_query(connection, sql.c_str(), &result) == DuckDBError) {
      std::string error = duckdb_result_error(&result);
      duckdb_destroy_result(&result);
      throw std::runtime_error(error + " in " + sql);
    }
    double value = duckdb_row_count(&result) ? duckdb_value_double(&result, 0, 0) : 0;
    duckdb_destroy_result(&result);
    return value;
  }
};

// Runs a shell command under GNU time: its wall seconds and peak RSS in KiB (measured by
// time(1), since a child forked from this process would count its pages).
std::pair<double, long> timed(const std::string& command, const std::string& rss_file) {
  auto start = Clock::now();
  int rc = std::system(("/usr/bin/time -f %M -o " + rss_file + " " + command).c_str());
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (rc != 0) throw std::runtime_error("failed: " + command);
  long kib = 0;
  std::ifstream(rss_file) >> kib;
  return {seconds, kib};
}

}  // namespace

int main(int argc, char** argv) try {
  std::string winnow = argc > 1 ? argv[1] : "build/winnow";
  std::string work = fs::absolute(argc > 2 ? argv[2] : "build/bench/parquet").string();
  long rows = argc > 3 ? std::stol(argv[3]) : 500000;
  fs::create_directories(work);
  std::string input = fmt::format("{}/docs-{}.parquet", work, rows);
  Db db;
  if (!fs::exists(input)) {
    db.number(
        fmt::format("COPY (SELECT i AS id, 'document ' || i || ' ' || repeat(md5(i::VARCHAR) || "
                    "' words and more words ', 10) AS text, i % 1000 AS bucket, i / 3.0 AS score, "
                    "TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS at, [i, i + 1] AS pair "
                    "FROM range({}) t(i)) TO '{}' (FORMAT parquet, COMPRESSION zstd)",
                    rows, input));
  }
  double text_mb =
      db.number(fmt::format("SELECT sum(length(text)) / 1e6 FROM read_parquet('{}')", input));

  std::string pipeline = work + "/pipeline.yaml";
  std::ofstream(pipeline) << "output: {format: jsonl}\n";
  fs::remove_all(work + "/out");
  auto [winnow_s, rss_kib] = timed(fmt::format("{} run {} -q --threads 1 -i {} -o {}/out", winnow,
                                               pipeline, input, work + "/out"),
                                   work + "/rss.txt");
  db.number("SET threads = 1");
  auto start = Clock::now();
  db.number(
      fmt::format("COPY (SELECT * FROM read_parquet('{}')) TO '{}/duckdb.jsonl' "
                  "(FORMAT json)",
                  input, work));
  double duckdb_s = std::chrono::duration<double>(Clock::now() - start).count();

  fmt::print("parquet read, {} rows, {:.0f} MB of text, one thread:\n", rows, text_mb);
  fmt::print(
      "  winnow run (no stages, JSONL out)  {:6.2f} s  {:6.0f} MB/s of text  peak RSS {} MB\n",
      winnow_s, text_mb / winnow_s, rss_kib / 1024);
  fmt::print("  DuckDB COPY ... (FORMAT json)      {:6.2f} s  {:6.0f} MB/s of text\n", duckdb_s,
             text_mb / duckdb_s);
  fmt::print("  ratio winnow / DuckDB: {:.2f}x\n", duckdb_s / winnow_s);
  fs::remove_all(work + "/out");
  fs::remove(work + "/duckdb.jsonl");
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "parquet_read_bench: {}\n", e.what());
  return 1;
}
