#include "dedup/identify_checkpoint.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dist/comm.h"
#include "io/atomic_file.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = "complete";

// The marker: the fingerprint on the first line, then "name size" per file.
std::string marker_text(const std::string& fingerprint,
                        const std::vector<std::pair<std::string, uint64_t>>& files) {
  std::string text = fingerprint + "\n";
  for (const auto& [name, bytes] : files) text += fmt::format("{} {}\n", name, bytes);
  return text;
}

bool parse_marker(const std::string& text, const std::string& fingerprint,
                  std::vector<std::pair<std::string, uint64_t>>& files) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != fingerprint) return false;
  files.clear();
  while (std::getline(in, line)) {
    const size_t space = line.rfind(' ');
    if (space == std::string::npos) return false;
    files.emplace_back(line.substr(0, space), std::stoull(line.substr(space + 1)));
  }
  return !files.empty();
}

}  // namespace

IdentifyCheckpoint::IdentifyCheckpoint(std::string dir, std::string fingerprint, dist::Comm& comm)
    : dir_(std::move(dir)), fingerprint_(std::move(fingerprint)), comm_(comm) {}

bool IdentifyCheckpoint::complete() {
  std::string text;
  if (comm_.rank() == 0) {
    std::ifstream in(dir_ + "/" + kMarker);
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  text = dist::from_rank0(comm_, text);
  return parse_marker(text, fingerprint_, files_);
}

Status IdentifyCheckpoint::begin_writing() {
  Status made;
  if (comm_.rank() == 0) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    fs::create_directories(dir_, ec);
    if (ec) made = Status::errorf("checkpoint folder {}: {}", dir_, ec.message());
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm_, made));
  return dist::agree(comm_, writer_.open(fmt::format("{}/rank-{}.records", dir_, comm_.rank())));
}

Status IdentifyCheckpoint::add(const BucketRecord* records, size_t n, std::string_view infos,
                               uint64_t documents) {
  std::lock_guard lock(mutex_);
  // A block: documents, record count, the records, then the entries.
  block_.resize(2 * sizeof(uint64_t) + n * sizeof(BucketRecord) + infos.size());
  const uint64_t count = n;
  char* p = block_.data();
  std::memcpy(p, &documents, sizeof documents);
  std::memcpy(p + sizeof(uint64_t), &count, sizeof count);
  if (n > 0) std::memcpy(p + 2 * sizeof(uint64_t), records, n * sizeof(BucketRecord));
  if (!infos.empty()) {
    std::memcpy(p + 2 * sizeof(uint64_t) + n * sizeof(BucketRecord), infos.data(), infos.size());
  }
  return writer_.append_block(block_.data(), block_.size());
}

Status IdentifyCheckpoint::finish_writing() {
  bytes_ = writer_.bytes_written();
  const std::string path = writer_.path();
  Status closed = writer_.close();
  // Synced before the marker names it: a machine that loses power keeps a whole file or none.
  if (closed.is_ok()) {
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
      ::fsync(fileno(f));
      std::fclose(f);
    }
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm_, closed));
  const std::string mine = fmt::format("{} {}", fs::path(path).filename().string(), bytes_);
  std::vector<std::pair<std::string, uint64_t>> files;
  for (const std::string& entry : comm_.all_gather(mine)) {
    const size_t space = entry.rfind(' ');
    files.emplace_back(entry.substr(0, space), std::stoull(entry.substr(space + 1)));
  }
  return dist::agree(comm_, comm_.rank() == 0
                                ? AtomicFile::write_whole(dir_ + "/" + kMarker,
                                                          marker_text(fingerprint_, files))
                                : Status::ok());
}

Status IdentifyCheckpoint::replay(const Visit& visit) {
  bytes_ = 0;
  Status status;
  for (size_t f = static_cast<size_t>(comm_.rank()); f < files_.size() && status.is_ok();
       f += static_cast<size_t>(comm_.size())) {
    const std::string path = dir_ + "/" + files_[f].first;
    SpillReader reader;
    status = reader.open(path, files_[f].second);
    std::string block;
    while (status.is_ok()) {
      auto more = reader.next_block(block);
      if (!more.is_ok()) {
        status = more.status();
        break;
      }
      if (!*more) break;
      uint64_t documents = 0, count = 0;
      if (block.size() >= 2 * sizeof(uint64_t)) {
        std::memcpy(&documents, block.data(), sizeof documents);
        std::memcpy(&count, block.data() + sizeof(uint64_t), sizeof count);
      }
      const size_t head = 2 * sizeof(uint64_t);
      if (block.size() < head || count > (block.size() - head) / sizeof(BucketRecord)) {
        status = Status::errorf("checkpoint {}: a block's record count does not fit it", path);
        break;
      }
      std::vector<BucketRecord> records(count);
      if (count > 0) std::memcpy(records.data(), block.data() + head, count * sizeof(BucketRecord));
      const size_t infos_at = head + count * sizeof(BucketRecord);
      status = visit(records.data(), records.size(),
                     std::string_view(block).substr(infos_at), documents);
    }
    bytes_ += files_[f].second;
  }
  return dist::agree(comm_, status);
}

void IdentifyCheckpoint::remove(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace winnow
