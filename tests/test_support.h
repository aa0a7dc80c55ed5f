#pragma once
// Helpers shared by the tests: scratch folders, files in each compression, whole-file reads.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"
#include "io/compression.h"
#include "test_paths.h"

namespace winnow::testing {

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_file(const std::string& path, std::string_view bytes);
std::string read_file(const std::string& path);
std::string compress(std::string_view bytes, Compression compression, int level = 3);
// Reads a file of any supported compression to its uncompressed bytes.
std::string read_decompressed(const std::string& path);
// Everything zlib or libzstd gets out of `compressed`, which may be cut short or damaged,
// given room for all of it: what `zcat` or `zstd -dc` print before their error (one gzip
// member; zstd frames may follow each other).
std::string reference_decode(std::string_view compressed, Compression compression);
std::vector<std::string> split_lines(std::string_view text);
// A batch holding `lines` as the reader leaves them: one padded raw buffer and its raw lines,
// numbered from `first_line`, not yet parsed.
std::unique_ptr<DocBatch> make_raw_batch(const std::vector<std::string>& lines, uint32_t shard = 0,
                                         uint64_t first_line = 1);
// Runs a shell command, returning its exit code; output goes to `output` when given.
int run_command(const std::string& command, std::string* output = nullptr);

// The `winnow` binary under test and the source tree: every test target defines both.
inline const std::string kWinnow = WINNOW_BINARY;
inline const std::string kSource = WINNOW_SOURCE_DIR;

// Runs `winnow ARGS` (stdout and stderr into `output` when given) and returns its exit code.
inline int winnow(const std::string& args, std::string* output = nullptr) {
  return run_command(kWinnow + " " + args, output);
}

// One of a run's totals from its stats.json ("documents", "kept", "dropped", "errors", ...).
uint64_t stats_total(const std::string& stats_path, const char* key);

// Starts `winnow ARGS` writing to `output` (appended to ARGS), sends it `signal_number`
// `delay_ms` after the run created `output`, and returns its wait status.
int signal_midway(const std::string& args, const std::string& output, int delay_ms,
                  int signal_number);

// Starts `winnow ARGS` and kills it with SIGKILL `delay_ms` after the fork.
void kill_midway(const std::string& args, int delay_ms);

// Writes `yaml` as DIR/pipeline.yaml and returns its path.
inline std::string pipeline_file(const TempDir& dir, const std::string& yaml) {
  std::string path = dir.file("pipeline.yaml");
  write_file(path, yaml);
  return path;
}

}  // namespace winnow::testing
