#include "pipeline/output_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "io/atomic_file.h"

namespace winnow {

namespace fs = std::filesystem;

OutputLayout::OutputLayout(std::string dir, const std::vector<InputFile>& inputs,
                           const OutputFormat& format)
    : dir_(std::move(dir)) {
  std::map<std::string, int> stem_uses;
  std::vector<std::string> stems;
  for (const auto& input : inputs) {
    stems.push_back(shard_stem(input));
    ++stem_uses[stems.back()];
  }
  std::string ext(format.extension());
  std::string rejected_ext(format.rejected_extension());
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = stem_uses[stems[i]] > 1 ? fmt::format("{:05}-{}", i, stems[i]) : stems[i];
    shards_.push_back({dir_ + "/" + name + ext, rejected_dir() + "/" + name + rejected_ext,
                       errors_dir() + "/" + name + ".jsonl", done_dir() + "/" + name + ".json",
                       name, files_dir(), dir_});
  }
}

namespace {

bool is_output_file(const std::string& name) {
  for (std::string_view ext : {".jsonl", ".jsonl.gz", ".jsonl.zst", ".json", ".parquet"}) {
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      return true;
    }
  }
  return false;
}

Status remove_file(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) return Status::errorf("cannot remove {}: {}", path.string(), ec.message());
  return Status::ok();
}

// Removes temporaries, and with `all_outputs` every output-like file (with `any_name`, every
// file): only used on folders winnow owns (rejected/, errors/, _done/, files/).
Status clean_folder(const std::string& dir, bool all_outputs, bool any_name = false) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::ok();
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (AtomicFile::is_temporary_name(name) ||
        (all_outputs && (any_name || is_output_file(name)))) {
      WINNOW_RETURN_IF_ERROR(remove_file(entry.path()));
    }
  }
  if (ec) return Status::errorf("cannot list {}: {}", dir, ec.message());
  return Status::ok();
}

// The shard name a kept file belongs to: "a" for "a.jsonl.zst" and for its part
// "a-p00003.jsonl.zst" (or .parquet); empty for anything else.
std::string kept_shard_name(const std::string& file) {
  for (std::string_view ext : {".jsonl.zst", ".jsonl.gz", ".jsonl", ".parquet", ".bin", ".idx"}) {
    if (file.size() <= ext.size() || file.compare(file.size() - ext.size(), ext.size(), ext) != 0) {
      continue;
    }
    std::string base = file.substr(0, file.size() - ext.size());
    constexpr size_t kPartSuffix = 7;  // "-p" and five digits
    if (base.size() > kPartSuffix && base.compare(base.size() - kPartSuffix, 2, "-p") == 0 &&
        std::all_of(base.end() - 5, base.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      return base.substr(0, base.size() - kPartSuffix);
    }
    return base;
  }
  return {};
}

// Every global step's result folder in global/ but those named in `keep`; global/ itself too
// when nothing is left in it (a file of the user's there stays, with the folder).
Status remove_global_results(const std::string& global, const std::set<std::string>& keep) {
  std::error_code ec;
  if (!fs::exists(global, ec)) return Status::ok();
  for (const auto& entry : fs::directory_iterator(global, ec)) {
    if (!entry.is_directory() || keep.count(entry.path().filename().string())) continue;
    fs::remove_all(entry.path(), ec);
    if (ec) return Status::errorf("cannot remove {}: {}", entry.path().string(), ec.message());
  }
  if (ec) return Status::errorf("cannot list {}: {}", global, ec.message());
  if (fs::is_empty(global, ec)) fs::remove(global, ec);
  return Status::ok();
}

}  // namespace

Status OutputLayout::prepare(bool overwrite, const std::set<std::string>& keep_global) const {
  for (const std::string& path : {dir_, rejected_dir(), errors_dir(), done_dir()}) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) return Status::errorf("cannot create output folder {}: {}", path, ec.message());
  }
  if (overwrite) {
    // In the top folder, which may hold the user's own files, remove only the kept shards (and
    // their parts) this layout or an earlier run (named by its markers) wrote, stats.json,
    // metrics.jsonl and report.html.
    std::set<std::string> names;
    for (const ShardPaths& shard : shards_) names.insert(fs::path(shard.marker).stem().string());
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(done_dir(), ec)) {
      if (entry.path().extension() == ".json") names.insert(entry.path().stem().string());
    }
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      if (entry.is_regular_file() && names.count(kept_shard_name(entry.path().filename()))) {
        WINNOW_RETURN_IF_ERROR(remove_file(entry.path()));
      }
    }
    for (const std::string& path : {stats_path(), metrics_path(), report_path(), summary_path()}) {
      WINNOW_RETURN_IF_ERROR(remove_file(path));
    }
    // winnow owns global/: a stale duplicates table or completion marker there would only
    // mislead (and a later identify must not take it for its own).
    WINNOW_RETURN_IF_ERROR(remove_global_results(global_dir(), keep_global));
  }
  WINNOW_RETURN_IF_ERROR(clean_folder(dir_, false));
  for (const std::string& sub : {rejected_dir(), errors_dir(), done_dir()}) {
    WINNOW_RETURN_IF_ERROR(clean_folder(sub, overwrite));
  }
  // files/ exists once a media item was kept; a missing one lists as empty.
  WINNOW_RETURN_IF_ERROR(clean_folder(files_dir(), overwrite, true));
  for (std::string_view clips :
       {output_names::kClipsDir, output_names::kMetasDir, output_names::kPreviewsDir}) {
    WINNOW_RETURN_IF_ERROR(clean_folder(in_dir(clips), overwrite, true));
  }
  // What a killed run stored between its passes is of no use to another run.
  std::error_code ec;
  fs::remove_all(work_dir(), ec);
  if (ec) return Status::errorf("cannot remove {}: {}", work_dir(), ec.message());
  return Status::ok();
}

}  // namespace winnow
