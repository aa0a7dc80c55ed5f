// Parquet through winnow against DuckDB's own COPY on the same file in the same run, both on
// one thread, in CPU seconds (user + system) of the whole process:
//   read:  `winnow run` with no stages, Parquet -> JSONL, against
//          `COPY (SELECT * FROM read_parquet(...)) TO ... (FORMAT json)`;
//   write: `winnow run` with no stages, Parquet -> Parquet (zstd), against
//          `COPY (SELECT * FROM read_parquet(...)) TO ... (FORMAT parquet, COMPRESSION zstd)`.
// winnow's CPU time and peak RSS come from GNU time (/usr/bin/time); DuckDB's from getrusage
// around its statement (it runs in this process, alone).
//
// Then projection: `exact_dedup` and `fuzzy_dedup` on the file's first 100,000 rows with a wide
// column no stage reads (3.2 KB of hex per row, as raw HTML beside extracted text would be),
// each run with `input.project_columns` true and false in the same bench run, one thread,
// JSONL out: CPU seconds of the whole run and the JSON bytes its identify pass read (stats.json,
// read back by DuckDB). And one file at --threads 1 and 2 (no stages), CPU and wall seconds,
// whole and split into ranges of row groups (input.parquet_split_mb): a whole file is read by
// one worker at a time, its ranges by several.
//
// Usage: build/bench/parquet_bench [WINNOW=build/winnow] [WORK_DIR=build/bench/parquet]
//                                  [ROWS=500000 | PATH.parquet | PATH.jsonl[.zst]:BYTES]
// A number generates a file with DuckDB (id, text of about 560 characters, a bucket number, a
// double, a timestamp and a list per row); a .parquet path is used as it is; a JSON Lines path
// with a byte budget (the bench corpus: build/bench/corpus/bench.jsonl.zst:1000000000) is cut
// to its first documents of that many bytes of JSON and converted to zstd Parquet once, by
// DuckDB, with every field typed as DuckDB detects it.
#include <duckdb.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;

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

double cpu_seconds_of_this_process() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Cost {
  double cpu_s = 0;
  double wall_s = 0;
  long rss_kib = 0;
};

// Runs a shell command under GNU time: its CPU seconds and peak RSS (measured by time(1), since
// a child forked from this process would count its pages).
Cost timed(const std::string& command, const std::string& time_file) {
  int rc = std::system(("/usr/bin/time -f '%U %S %M %e' -o " + time_file + " " + command).c_str());
  if (rc != 0) throw std::runtime_error("failed: " + command);
  double user = 0, sys = 0;
  Cost cost;
  std::ifstream(time_file) >> user >> sys >> cost.rss_kib >> cost.wall_s;
  cost.cpu_s = user + sys;
  return cost;
}

// DuckDB's CPU seconds for one statement.
double duckdb_cpu(Db& db, const std::string& sql) {
  double before = cpu_seconds_of_this_process();
  db.number(sql);
  return cpu_seconds_of_this_process() - before;
}

// `path`, written once by DuckDB as zstd Parquet from `select` (reused by later bench runs).
std::string made_once(Db& db, const std::string& path, const std::string& select) {
  if (!fs::exists(path)) {
    db.number(fmt::format("COPY ({}) TO '{}' (FORMAT parquet, COMPRESSION zstd)", select, path));
  }
  return path;
}

std::string input_file(Db& db, const std::string& work, const std::string& source) {
  if (source.ends_with(".parquet")) return fs::absolute(source).string();
  size_t colon = source.rfind(':');
  if (colon == std::string::npos) {
    long rows = std::stol(source);
    return made_once(
        db, fmt::format("{}/docs-{}.parquet", work, rows),
        fmt::format("SELECT i AS id, 'document ' || i || ' ' || repeat(md5(i::VARCHAR) || "
                    "' words and more words ', 10) AS text, i % 1000 AS bucket, i / 3.0 AS score, "
                    "TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS at, [i, i + 1] AS pair "
                    "FROM range({}) t(i)",
                    rows));
  }
  std::string jsonl = source.substr(0, colon);
  long long budget = std::stoll(source.substr(colon + 1));
  std::string path =
      fmt::format("{}/{}-{}.parquet", work, fs::path(jsonl).stem().stem().string(), budget);
  if (!fs::exists(path)) {
    // The first documents within the budget of JSON bytes, cut with zstd/head outside DuckDB.
    std::string cut = work + "/cut.jsonl";
    std::string command =
        fmt::format("{} '{}' | head -c {} > '{}'", jsonl.ends_with(".zst") ? "zstd -dc" : "cat",
                    jsonl, budget, cut);
    if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
    // The last line may be cut: read_json skips nothing, so drop it first.
    command = fmt::format("sed -i '$ d' '{}'", cut);
    if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
    db.number(
        fmt::format("COPY (SELECT * FROM read_json('{}', format = 'newline_delimited', "
                    "maximum_object_size = 1000000000)) TO '{}' (FORMAT parquet, "
                    "COMPRESSION zstd)",
                    cut, path));
    fs::remove(cut);
  }
  return path;
}

// The first 100,000 rows of `input` with a wide column beside them that no stage reads:
// 96 distinct md5 digests per row (3.2 KB of hex, which zstd halves at best).
std::string wide_file(Db& db, const std::string& work, const std::string& input) {
  return made_once(
      db, work + "/" + fs::path(input).stem().string() + "-wide.parquet",
      fmt::format("SELECT * EXCLUDE (file_row_number), array_to_string(list_transform(range(96), "
                  "j -> md5((file_row_number * 96 + j)::VARCHAR)), ' ') AS wide_html "
                  "FROM read_parquet('{}', file_row_number = true) LIMIT 100000",
                  input));
}

// exact_dedup and fuzzy_dedup over the wide file, each with and without projection.
void projection_runs(Db& db, const std::string& winnow, const std::string& work,
                     const std::string& input) {
  std::string wide = wide_file(db, work, input);
  double mb = db.number(
      fmt::format("SELECT sum(strlen(to_json(t)::VARCHAR)) / 1e6 FROM read_parquet('{}') t", wide));
  fmt::print("Projection: {} (100,000 rows, {:.0f} MB of JSON records), one thread, JSONL out:\n",
             fs::path(wide).filename().string(), mb);
  for (std::string stage : {"exact_dedup", "fuzzy_dedup"}) {
    double cpu[2] = {0, 0};
    for (int project = 1; project >= 0; --project) {
      std::string pipeline = work + "/projection.yaml";
      std::ofstream(pipeline) << fmt::format(
          "input: {{project_columns: {}}}\nstages:\n  - stage: {}\n", project ? "true" : "false",
          stage);
      fs::remove_all(work + "/out");
      Cost cost = timed(fmt::format("{} run {} -q --threads 1 --output-format jsonl -i {} -o {}",
                                    winnow, pipeline, wide, work + "/out"),
                        work + "/time.txt");
      double identify_mb = db.number(fmt::format(
          "SELECT passes[1].input_bytes / 1e6 FROM read_json('{}/out/stats.json')", work));
      cpu[project] = cost.cpu_s;
      fmt::print("  {:11} projection {:3}  {:6.2f} CPU s, identify pass read {:6.0f} MB of JSON\n",
                 stage, project ? "on" : "off", cost.cpu_s, identify_mb);
    }
    fmt::print("  {:11} projection saves {:.0f}% of the run's CPU time\n", stage,
               100 * (1 - cpu[1] / cpu[0]));
  }
  fs::remove_all(work + "/out");
}

// One file, no stages, at one and two threads, whole (input.parquet_split_mb: 0) and split into
// ranges of row groups at an eighth of the file (DuckDB's row groups of 122,880 rows are about
// that or more on the generated files, so each is a range).
void one_file_threads(const std::string& winnow, const std::string& work,
                      const std::string& input) {
  double split_mb = double(fs::file_size(input)) / 8 / (1 << 20);
  fmt::print("One file, no stages, to JSONL, whole and split at {:.1f} MiB:\n", split_mb);
  for (double mb : {0.0, split_mb}) {
    std::string pipeline = work + "/split.yaml";
    std::ofstream(pipeline) << fmt::format("input: {{parquet_split_mb: {:.6f}}}\nstages: []\n", mb);
    for (int threads : {1, 2}) {
      fs::remove_all(work + "/out");
      Cost cost = timed(fmt::format("{} run {} -q --threads {} --output-format jsonl -i {} -o {}",
                                    winnow, pipeline, threads, input, work + "/out"),
                        work + "/time.txt");
      size_t shards = 0;
      for (const auto& entry : fs::directory_iterator(work + "/out/_done"))
        shards += entry.is_regular_file();
      fmt::print("  {:5} ({} shard{})  --threads {}  {:6.2f} CPU s  {:6.2f} s wall\n",
                 mb > 0 ? "split" : "whole", shards, shards == 1 ? "" : "s", threads, cost.cpu_s,
                 cost.wall_s);
    }
  }
  fs::remove_all(work + "/out");
}

}  // namespace

int main(int argc, char** argv) try {
  std::string winnow = argc > 1 ? argv[1] : "build/winnow";
  std::string work = fs::absolute(argc > 2 ? argv[2] : "build/bench/parquet").string();
  std::string source = argc > 3 ? argv[3] : "500000";
  fs::create_directories(work);
  Db db;
  std::string input = input_file(db, work, source);
  double rows = db.number(fmt::format("SELECT count(*) FROM read_parquet('{}')", input));
  double text_mb =
      db.number(fmt::format("SELECT sum(length(text)) / 1e6 FROM read_parquet('{}')", input));
  db.number("SET threads = 1");

  std::string pipeline = work + "/pipeline.yaml";
  std::ofstream(pipeline) << "stages: []\n";
  fmt::print("Parquet, {} ({:.0f} rows, {:.0f} MB of text), one thread, CPU seconds:\n",
             fs::path(input).filename().string(), rows, text_mb);
  for (std::string format : {"jsonl", "parquet"}) {
    fs::remove_all(work + "/out");
    Cost ours = timed(fmt::format("{} run {} -q --threads 1 --output-format {} -i {} -o {}/out",
                                  winnow, pipeline, format, input, work + "/out"),
                      work + "/time.txt");
    std::string to = format == "jsonl" ? "(FORMAT json)" : "(FORMAT parquet, COMPRESSION zstd)";
    double theirs =
        duckdb_cpu(db, fmt::format("COPY (SELECT * FROM read_parquet('{}')) TO '{}/duckdb.out' {}",
                                   input, work, to));
    fmt::print(
        "  to {:7}  winnow {:6.2f} s ({:5.0f} MB/s of text, peak RSS {:4} MB)   "
        "DuckDB COPY {:6.2f} s ({:5.0f} MB/s)   ratio {:.2f}x\n",
        format, ours.cpu_s, text_mb / ours.cpu_s, ours.rss_kib / 1024, theirs, text_mb / theirs,
        theirs / ours.cpu_s);
    fs::remove_all(work + "/out");
    fs::remove(work + "/duckdb.out");
  }
  one_file_threads(winnow, work, input);
  projection_runs(db, winnow, work, input);
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "parquet_bench: {}\n", e.what());
  return 1;
}
