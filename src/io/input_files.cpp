#include "io/input_files.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/ascii.h"
#include "io/output_names.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[{") != std::string::npos; }

bool hidden(const std::string& name) { return name.empty() || name[0] == '.' || name[0] == '_'; }

bool looks_like_records(const std::string& name) {
  return name.find(".jsonl") != std::string::npos || name.ends_with(".json") ||
         name.ends_with(".gz") || name.ends_with(".zst") || name.ends_with(".warc");
}

bool looks_like_image(const std::string& name) {
  for (std::string_view ext : {".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff"}) {
    if (ascii_iends_with(name, ext)) return true;
  }
  return false;
}

// A folder a winnow run wrote into (it has a _done/ folder of completion markers).
bool is_winnow_output(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / output_names::kDoneDir, ec);
}

// In a winnow output folder only the kept shards are documents to read again: its rejected/,
// errors/ and global/ folders and its stats.json and metrics.jsonl are the run's bookkeeping.
bool is_output_bookkeeping(const fs::path& entry, bool is_dir) {
  std::string name = entry.filename().string();
  if (is_dir) {
    if (name != output_names::kRejectedDir && name != output_names::kErrorsDir &&
        name != output_names::kGlobalDir) {
      return false;
    }
  } else if (name != output_names::kStatsFile && name != output_names::kMetricsFile) {
    return false;
  }
  return is_winnow_output(entry.parent_path());
}

Status add_path(const std::string& path, bool from_pattern, InputFiles wanted,
                std::vector<InputFile>& out) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    return Status::errorf("input path '{}' does not exist", path);
  }
  if (fs::is_directory(status) && !path.ends_with(".jsonl")) {
    size_t before = out.size();
    for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (it->is_directory() &&
          (name[0] == '.' || name[0] == '_' || is_output_bookkeeping(it->path(), true))) {
        it.disable_recursion_pending();
        continue;
      }
      bool looks_right =
          wanted == InputFiles::kImages ? looks_like_image(name) : looks_like_records(name);
      if (it->is_regular_file() && !hidden(name) && looks_right &&
          !is_output_bookkeeping(it->path(), false)) {
        out.push_back({it->path().string(), static_cast<uint64_t>(it->file_size())});
      }
    }
    if (ec) return Status::errorf("cannot list input directory '{}': {}", path, ec.message());
    if (out.size() == before && !from_pattern) {
      return Status::errorf("input directory '{}' holds no {} files", path,
                            wanted == InputFiles::kImages
                                ? "image (.jpg, .jpeg, .png, .gif, .webp, .bmp, .tif[f])"
                                : ".jsonl or .warc[.gz|.zst]");
    }
    return Status::ok();
  }
  // A named file (or a directory named *.jsonl, which will fail to read with a clear error).
  uint64_t size = fs::is_regular_file(status) ? fs::file_size(path, ec) : 0;
  out.push_back({path, size});
  return Status::ok();
}

}  // namespace

Result<std::vector<InputFile>> discover_inputs(const std::vector<std::string>& patterns,
                                               InputFiles wanted) {
  std::vector<InputFile> files;
  if (patterns.empty()) return Status::error("no input given (input.paths or --input)");
  for (const auto& pattern : patterns) {
    if (!has_glob_chars(pattern)) {
      WINNOW_RETURN_IF_ERROR(add_path(pattern, false, wanted, files));
      continue;
    }
    glob_t matches{};
    int rc = ::glob(pattern.c_str(), GLOB_BRACE | GLOB_TILDE, nullptr, &matches);
    if (rc == GLOB_NOMATCH || (rc == 0 && matches.gl_pathc == 0)) {
      globfree(&matches);
      return Status::errorf("input pattern '{}' matches no file", pattern);
    }
    if (rc != 0) {
      globfree(&matches);
      return Status::errorf("cannot expand input pattern '{}'", pattern);
    }
    for (size_t i = 0; i < matches.gl_pathc; ++i) {
      Status s = add_path(matches.gl_pathv[i], true, wanted, files);
      if (!s.is_ok()) {
        globfree(&matches);
        return s;
      }
    }
    globfree(&matches);
  }
  std::sort(files.begin(), files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const InputFile& a, const InputFile& b) { return a.path == b.path; }),
              files.end());
  return files;
}

std::string shard_stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view suffix : {".gz", ".zst", ".jsonl", ".json"}) {
      if (name.ends_with(suffix) && name.size() > suffix.size()) {
        name.resize(name.size() - suffix.size());
        changed = true;
      }
    }
  }
  return name;
}

}  // namespace winnow
