#include "dedup/phase_checkpoint.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "dedup/spill_file.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

// What precedes the result in a checkpoint's block: fingerprint, partition, phase name length.
constexpr size_t kHeadBytes = 8 + 4 + 4;

std::string head(uint64_t fingerprint, uint32_t partition, std::string_view phase) {
  std::string out(kHeadBytes, '\0');
  const uint32_t length = static_cast<uint32_t>(phase.size());
  std::memcpy(out.data(), &fingerprint, 8);
  std::memcpy(out.data() + 8, &partition, 4);
  std::memcpy(out.data() + 12, &length, 4);
  out.append(phase);
  return out;
}

// The file's only block, verified; nullopt when anything is wrong with it.
std::optional<std::string> read_single_block(const std::string& path) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return std::nullopt;
  SpillReader reader;
  if (!reader.open(path, size).is_ok()) return std::nullopt;
  std::string block;
  std::string extra;
  auto first = reader.next_block(block);
  if (!first.is_ok() || !*first) return std::nullopt;
  auto second = reader.next_block(extra);
  if (!second.is_ok() || *second) return std::nullopt;
  return block;
}

Status write_manifest(const std::string& dir, uint64_t fingerprint) {
  const std::string tmp = dir + "/manifest.tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << fmt::format("{:016x}\n", fingerprint);
    if (!out.flush()) return Status::errorf("checkpoint: cannot write {}", tmp);
  }
  std::error_code ec;
  fs::rename(tmp, dir + "/manifest", ec);
  if (ec) return Status::errorf("checkpoint: cannot write {}/manifest: {}", dir, ec.message());
  return Status::ok();
}

}  // namespace

uint64_t checkpoint_fingerprint(const std::vector<std::string>& parts) {
  uint64_t h = 0;
  for (const std::string& part : parts) {
    const uint64_t size = part.size();
    h = XXH3_64bits_withSeed(&size, sizeof size, h);
    h = XXH3_64bits_withSeed(part.data(), part.size(), h);
  }
  return h;
}

Result<PhaseCheckpoint> PhaseCheckpoint::open(const std::string& dir, uint64_t fingerprint) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::errorf("checkpoint: cannot make {}: {}", dir, ec.message());
  std::ifstream in(dir + "/manifest");
  std::string recorded;
  in >> recorded;
  if (recorded != fmt::format("{:016x}", fingerprint)) {
    // Another config or input (or no manifest): none of what is here may be reused.
    for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
    WINNOW_RETURN_IF_ERROR(write_manifest(dir, fingerprint));
  }
  return PhaseCheckpoint(dir, fingerprint);
}

std::string PhaseCheckpoint::path_of(std::string_view phase, uint32_t partition) const {
  return fmt::format("{}/{}/part-{:05}.ckpt", dir_, phase, partition);
}

Status PhaseCheckpoint::save(std::string_view phase, uint32_t partition,
                             std::string_view payload) const {
  const std::string path = path_of(phase, partition);
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Status::errorf("checkpoint: cannot make folder of {}: {}", path, ec.message());
  // Unique per process, so ranks saving the same partition never share a temporary.
  const std::string tmp = fmt::format("{}.tmp{}", path, ::getpid());
  std::string block = head(fingerprint_, partition, phase);
  block.append(payload);
  SpillWriter writer;
  WINNOW_RETURN_IF_ERROR(writer.open(tmp));
  WINNOW_RETURN_IF_ERROR(writer.append_block(block.data(), block.size()));
  WINNOW_RETURN_IF_ERROR(writer.close());
  fs::rename(tmp, path, ec);
  if (ec) return Status::errorf("checkpoint: cannot rename {}: {}", tmp, ec.message());
  return Status::ok();
}

std::optional<std::string> PhaseCheckpoint::load(std::string_view phase, uint32_t partition) {
  const std::string path = path_of(phase, partition);
  if (!fs::exists(path)) return std::nullopt;
  std::optional<std::string> block = read_single_block(path);
  const std::string expected = head(fingerprint_, partition, phase);
  if (!block || block->compare(0, expected.size(), expected) != 0) {
    ++damaged_;
    std::error_code ec;
    fs::remove(path, ec);
    return std::nullopt;
  }
  return block->substr(expected.size());
}

int PhaseCheckpoint::last_finished(const std::vector<std::string>& phases, uint32_t partition) {
  int last = -1;
  for (size_t i = 0; i < phases.size(); ++i) {
    if (!load(phases[i], partition)) break;
    last = static_cast<int>(i);
  }
  return last;
}

}  // namespace winnow
