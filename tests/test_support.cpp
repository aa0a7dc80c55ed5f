#include "test_support.h"

#include <signal.h>
#include <simdjson.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/byte_source.h"

namespace winnow::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "winnow-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string compress(std::string_view bytes, Compression compression, int level) {
  if (compression == Compression::kNone) return std::string(bytes);
  if (compression == Compression::kZstd) {
    // With a content checksum, as the zstd command line writes by default.
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    size_t n = ZSTD_compress2(cctx, out.data(), out.size(), bytes.data(), bytes.size());
    ZSTD_freeCCtx(cctx);
    if (ZSTD_isError(n)) throw std::runtime_error("zstd failed");
    out.resize(n);
    return out;
  }
  z_stream s{};
  deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, bytes.size()) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  s.avail_in = static_cast<uInt>(bytes.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  if (deflate(&s, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("gzip failed");
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

std::string read_decompressed(const std::string& path) {
  StreamError error;
  auto source = ByteSource::open(path, &error);
  if (!source) throw std::runtime_error(error.message);
  std::string out;
  std::string buffer(1 << 16, '\0');
  while (size_t n = source->read(buffer.data(), buffer.size())) out.append(buffer.data(), n);
  if (source->failed()) throw std::runtime_error(source->error().message);
  return out;
}

std::string reference_decode(std::string_view compressed, Compression compression) {
  if (compression == Compression::kNone) return std::string(compressed);
  std::string out;
  std::vector<char> buffer(1 << 16);
  if (compression == Compression::kGzip) {
    z_stream s{};
    inflateInit2(&s, 15 + 32);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    s.avail_in = static_cast<uInt>(compressed.size());
    int rc;
    do {
      s.next_out = reinterpret_cast<Bytef*>(buffer.data());
      s.avail_out = static_cast<uInt>(buffer.size());
      rc = inflate(&s, Z_NO_FLUSH);
      out.append(buffer.data(), buffer.size() - s.avail_out);
    } while (rc == Z_OK && s.avail_out == 0);
    inflateEnd(&s);
    return out;
  }
  ZSTD_DStream* d = ZSTD_createDStream();
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  while (true) {
    ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
    size_t rc = ZSTD_decompressStream(d, &o, &in);
    out.append(buffer.data(), o.pos);
    if (ZSTD_isError(rc) || o.pos == 0) break;
  }
  ZSTD_freeDStream(d);
  return out;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::unique_ptr<DocBatch> make_raw_batch(const std::vector<std::string>& lines, uint32_t shard,
                                         uint64_t first_line) {
  auto batch = std::make_unique<DocBatch>();
  batch->shard = shard;
  std::string joined;
  for (const std::string& line : lines) {
    batch->raw_lines.push_back(
        {joined.size(), line.size(), first_line + batch->raw_lines.size(), joined.size()});
    joined += line;
    joined.push_back('\n');
  }
  auto buffer = std::make_unique<char[]>(joined.size() + kRecordPadding);
  std::memcpy(buffer.get(), joined.data(), joined.size());
  std::memset(buffer.get() + joined.size(), ' ', kRecordPadding);
  batch->set_raw_buffer(std::move(buffer), joined.size());
  return batch;
}

int run_command(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::string text;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe)) text.append(buffer, n);
  int status = pclose(pipe);
  if (output) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace winnow::testing

namespace winnow::testing {
// Declared in pipeline/pipeline_fixture.h; lives here so every test binary links it once.
std::map<std::string, std::string> read_output_tree(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = std::filesystem::relative(entry.path(), dir).string();
    // Timings and charts differ between runs; the data files must not.
    if (rel == "stats.json" || rel == "metrics.jsonl" || rel == "report.html") continue;
    files[rel] = read_file(entry.path().string());
  }
  return files;
}
uint64_t stats_total(const std::string& stats_path, const char* key) {
  simdjson::dom::parser parser;
  return uint64_t(parser.load(stats_path)["totals"][key]);
}

// Starts `winnow ARGS` writing to `output`, sends it `signal_number` `delay_ms` after the run
// created `output`, and returns its wait status. Counting from the output folder rather than
// from the fork: winnow installs its SIGINT/SIGTERM handlers after loading the pipeline and
// before creating the output, and a process start slowed down by a loaded machine must not
// turn a clean stop into a death by signal.
int signal_midway(const std::string& args, const std::string& output, int delay_ms,
                  int signal_number) {
  pid_t pid = fork();
  if (pid == 0) {
    // exec: the shell becomes winnow, so the signal reaches winnow itself.
    execl("/bin/sh", "sh", "-c",
          ("exec " + kWinnow + " " + args + output + " >/dev/null 2>&1").c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(output) && std::chrono::steady_clock::now() < give_up) {
    if (waitpid(pid, &status, WNOHANG) == pid) return status;  // ended before it began
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  kill(pid, signal_number);
  waitpid(pid, &status, 0);
  return status;
}

void kill_midway(const std::string& args, int delay_ms) {
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + kWinnow + " " + args + " >/dev/null 2>&1").c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
}

}  // namespace winnow::testing

// The paths themselves: only this file's compile line holds them (tests/CMakeLists.txt).
const char* winnow_test_binary() { return WINNOW_TEST_BINARY_PATH; }
const char* winnow_test_source_dir() { return WINNOW_TEST_SOURCE_DIR_PATH; }
