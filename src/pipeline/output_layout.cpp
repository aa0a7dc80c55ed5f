#include "pipeline/output_layout.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <system_error>

#include "io/atomic_file.h"

namespace winnow {

namespace fs = std::filesystem;

OutputLayout::OutputLayout(std::string dir, const std::vector<InputFile>& inputs,
                           Compression compression)
    : dir_(std::move(dir)) {
  std::map<std::string, int> stem_uses;
  std::vector<std::string> stems;
  for (const auto& input : inputs) {
    stems.push_back(shard_stem(input.path));
    ++stem_uses[stems.back()];
  }
  std::string ext(format_extension(compression));
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = stem_uses[stems[i]] > 1 ? fmt::format("{:05}-{}", i, stems[i]) : stems[i];
    shards_.push_back({dir_ + "/" + name + ext, dir_ + "/rejected/" + name + ext,
                       dir_ + "/errors/" + name + ".jsonl", dir_ + "/_done/" + name + ".json"});
  }
}

namespace {

bool is_output_file(const std::string& name) {
  for (std::string_view ext : {".jsonl", ".jsonl.gz", ".jsonl.zst", ".json"}) {
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      return true;
    }
  }
  return false;
}

Status remove_files(const std::string& dir, bool overwrite) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::ok();
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (AtomicFile::is_temporary_name(name) || (overwrite && is_output_file(name))) {
      fs::remove(entry.path(), ec);
      if (ec) return Status::errorf("cannot remove {}: {}", entry.path().string(), ec.message());
    }
  }
  if (ec) return Status::errorf("cannot list {}: {}", dir, ec.message());
  return Status::ok();
}

}  // namespace

Status OutputLayout::prepare(bool overwrite) const {
  for (const std::string& sub : {std::string(), std::string("/rejected"), std::string("/errors"),
                                 std::string("/_done")}) {
    std::string path = dir_ + sub;
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) return Status::errorf("cannot create output folder {}: {}", path, ec.message());
    // Only files winnow writes are removed: .jsonl[.gz|.zst] and .json in its own folders.
    WINNOW_RETURN_IF_ERROR(remove_files(path, overwrite));
  }
  return Status::ok();
}

}  // namespace winnow
