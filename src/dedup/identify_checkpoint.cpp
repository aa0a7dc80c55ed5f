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

bool IdentifyCheckpoint::complete(const std::string& phase) {
  std::string text;
  if (comm_.rank() == 0) {
    std::ifstream in(dir_ + "/" + phase + ".complete");
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  text = dist::from_rank0(comm_, text);
  return parse_marker(text, fingerprint_, files_[phase]);
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
  blocks_ = 0;
  return open_parts("records", writers_);
}

Status IdentifyCheckpoint::open_parts(const std::string& phase,
                                      std::array<SpillWriter, kParts>& writers) {
  Status status;
  for (size_t p = 0; p < kParts && status.is_ok(); ++p) {
    status = writers[p].open(fmt::format("{}/rank-{}-{}.{}", dir_, comm_.rank(), p, phase));
  }
  return dist::agree(comm_, status);
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
  return writers_[blocks_++ % kParts].append_block(block_.data(), block_.size());
}

Status IdentifyCheckpoint::mark_complete(const std::string& phase,
                                         const std::array<SpillWriter, kParts>& parts) {
  std::string mine;  // "name size" lines
  for (const SpillWriter& part : parts) {
    // Synced before the marker names it: a machine that loses power keeps a whole file or none.
    if (FILE* f = std::fopen(part.path().c_str(), "rb")) {
      ::fsync(fileno(f));
      std::fclose(f);
    }
    mine += fmt::format("{} {}\n", fs::path(part.path()).filename().string(),
                        part.bytes_written());
  }
  std::vector<std::pair<std::string, uint64_t>> files;
  for (const std::string& entry : comm_.all_gather(mine)) {
    std::istringstream lines(entry);
    for (std::string line; std::getline(lines, line);) {
      const size_t space = line.rfind(' ');
      files.emplace_back(line.substr(0, space), std::stoull(line.substr(space + 1)));
    }
  }
  return dist::agree(comm_, comm_.rank() == 0
                                ? AtomicFile::write_whole(dir_ + "/" + phase + ".complete",
                                                          marker_text(fingerprint_, files))
                                : Status::ok());
}

Status IdentifyCheckpoint::finish_writing() {
  bytes_ = 0;
  Status status;
  for (SpillWriter& part : writers_) {
    bytes_ += part.bytes_written();
    Status closed = part.close();
    if (status.is_ok()) status = closed;
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm_, status));
  return mark_complete("records", writers_);
}

// A links file: blocks of links, one empty block, then blocks of document entries.
Status IdentifyCheckpoint::save_links(
    const std::vector<std::pair<uint64_t, uint64_t>>& links,
    const std::function<Status(const std::function<Status(std::string_view)>&)>& documents) {
  std::array<SpillWriter, kParts> parts;
  WINNOW_RETURN_IF_ERROR(open_parts("links", parts));
  Status status;
  constexpr size_t kPerBlock = size_t{1} << 20;  // 16 MB blocks at most
  // An equal slice of the links per part, in blocks, then the empty block that ends them.
  for (size_t p = 0; p < kParts && status.is_ok(); ++p) {
    const size_t begin = links.size() * p / kParts, end = links.size() * (p + 1) / kParts;
    for (size_t i = begin; status.is_ok() && i < end; i += kPerBlock) {
      const size_t n = std::min(kPerBlock, end - i);
      status = parts[p].append_block(links.data() + i, n * sizeof(links[0]));
    }
    if (status.is_ok()) status = parts[p].append_block("", 0);
  }
  size_t next = 0;
  if (status.is_ok()) {
    status = documents([&](std::string_view block) {
      return block.empty() ? Status::ok()
                           : parts[next++ % kParts].append_block(block.data(), block.size());
    });
  }
  for (SpillWriter& part : parts) {
    Status closed = part.close();
    if (status.is_ok()) status = closed;
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm_, status));
  return mark_complete("links", parts);
}

Status IdentifyCheckpoint::for_each_block(
    const std::string& phase,
    const std::function<Status(std::string_view block, const std::string& path)>& visit) {
  const auto& files = files_[phase];
  Status status;
  for (size_t f = static_cast<size_t>(comm_.rank()); f < files.size() && status.is_ok();
       f += static_cast<size_t>(comm_.size())) {
    const std::string path = dir_ + "/" + files[f].first;
    SpillReader reader;
    status = reader.open(path, files[f].second);
    std::string block;
    while (status.is_ok()) {
      auto more = reader.next_block(block);
      if (!more.is_ok()) {
        status = more.status();
        break;
      }
      if (!*more) break;
      status = visit(block, path);
    }
    bytes_ += files[f].second;
  }
  return dist::agree(comm_, status);
}

Status IdentifyCheckpoint::replay(const Visit& visit) {
  bytes_ = 0;
  return for_each_block("records", [&](std::string_view block, const std::string& path) {
    uint64_t documents = 0, count = 0;
    const size_t head = 2 * sizeof(uint64_t);
    if (block.size() >= head) {
      std::memcpy(&documents, block.data(), sizeof documents);
      std::memcpy(&count, block.data() + sizeof(uint64_t), sizeof count);
    }
    if (block.size() < head || count > (block.size() - head) / sizeof(BucketRecord)) {
      return Status::errorf("checkpoint {}: a block's record count does not fit it", path);
    }
    std::vector<BucketRecord> records(count);
    if (count > 0) std::memcpy(records.data(), block.data() + head, count * sizeof(BucketRecord));
    return visit(records.data(), records.size(), block.substr(head + count * sizeof(BucketRecord)),
                 documents);
  });
}

Status IdentifyCheckpoint::load_links(std::vector<std::pair<uint64_t, uint64_t>>& links,
                                      const std::function<Status(std::string_view)>& documents) {
  bytes_ = 0;
  std::string current;
  bool in_documents = false;
  return for_each_block("links", [&](std::string_view block, const std::string& path) {
    if (path != current) current = path, in_documents = false;  // each file: links first
    if (in_documents) return documents(block);
    if (block.empty()) {
      in_documents = true;
      return Status::ok();
    }
    using Pair = std::pair<uint64_t, uint64_t>;
    if (block.size() % sizeof(Pair) != 0) {
      return Status::errorf("checkpoint {}: a block is not whole links", path);
    }
    for (size_t at = 0; at < block.size(); at += sizeof(Pair)) {
      uint64_t ends[2];
      std::memcpy(ends, block.data() + at, sizeof ends);
      links.emplace_back(ends[0], ends[1]);
    }
    return Status::ok();
  });
}

}  // namespace winnow
