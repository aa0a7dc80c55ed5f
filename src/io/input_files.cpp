#include "io/input_files.h"

#include <fmt/format.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>

#include "core/ascii.h"
#include "io/output_names.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[{") != std::string::npos; }

bool hidden(const std::string& name) { return name.empty() || name[0] == '.' || name[0] == '_'; }

bool looks_like_records(const std::string& name) {
  return name.find(".jsonl") != std::string::npos || name.ends_with(".json") ||
         name.ends_with(".gz") || name.ends_with(".zst") || name.ends_with(".warc") ||
         name.ends_with(".parquet") || name.ends_with(".xml") || name.ends_with(".xml.bz2") ||
         (name.starts_with("arXiv_src_") && name.ends_with(".tar"));  // arXiv's bulk tars
}

bool looks_like_image(const std::string& name) {
  for (std::string_view ext : {".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff"}) {
    if (ascii_iends_with(name, ext)) return true;
  }
  return false;
}

bool looks_like_video(const std::string& name) {
  for (std::string_view ext : {".mp4", ".mkv", ".mov", ".webm", ".avi", ".m4v"}) {
    if (ascii_iends_with(name, ext)) return true;
  }
  return false;
}

bool looks_like_audio(const std::string& name) {
  for (std::string_view ext : {".wav", ".flac", ".mp3", ".ogg", ".opus", ".m4a"}) {
    if (ascii_iends_with(name, ext)) return true;
  }
  return false;
}

bool looks_like_tar(const std::string& name) {
  for (std::string_view ext : {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tar.bz2", ".tar.xz"}) {
    if (ascii_iends_with(name, ext)) return true;
  }
  return false;
}

// A folder a winnow run wrote into (it has a _done/ folder of completion markers).
bool is_winnow_output(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / output_names::kDoneDir, ec);
}

// In a winnow output folder only the kept shards are documents to read again: its _done/,
// _work/, rejected/, errors/ and global/ folders and its stats.json, metrics.jsonl and
// report.html are the run's bookkeeping.
bool is_output_bookkeeping(const fs::path& entry, bool is_dir) {
  std::string name = entry.filename().string();
  if (is_dir) {
    if (name != output_names::kRejectedDir && name != output_names::kErrorsDir &&
        name != output_names::kGlobalDir && name != output_names::kDoneDir &&
        name != output_names::kWorkDir) {
      return false;
    }
  } else if (name != output_names::kStatsFile && name != output_names::kMetricsFile &&
             name != output_names::kReportFile) {
    return false;
  }
  return is_winnow_output(entry.parent_path());
}

class Discovery {
 public:
  explicit Discovery(InputSelection selection) : selection_(selection) {}

  // A path named or matched by a glob: followed wherever it points.
  Status add_named(std::string path, bool from_pattern);
  DiscoveredInputs take() { return std::move(found_); }

 private:
  bool wanted(const std::string& name) const {
    switch (selection_.wanted) {
      case InputFiles::kImages:
        return looks_like_image(name);
      case InputFiles::kTars:
        return looks_like_tar(name);
      case InputFiles::kVideos:
        return looks_like_video(name);
      case InputFiles::kAudio:
        return looks_like_audio(name);
      default:
        return looks_like_records(name);
    }
  }
  // Walks `dir`; its folders are walked in name order, so that a folder reachable twice
  // through links is always taken by the same path.
  Status walk(const fs::path& dir);
  // False when the folder was walked already (by its device and inode).
  bool first_visit(const fs::path& dir) {
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) return true;
    return walked_.insert({st.st_dev, st.st_ino}).second;
  }

  InputSelection selection_;
  DiscoveredInputs found_;
  std::set<std::pair<dev_t, ino_t>> walked_;
};

Status Discovery::walk(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(*it);
  }
  if (ec) return Status::errorf("cannot list input directory '{}': {}", dir.string(), ec.message());
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path() < b.path(); });
  for (const fs::directory_entry& entry : entries) {
    const fs::path& path = entry.path();
    std::string name = path.filename().string();
    if (hidden(name)) continue;
    std::error_code status_ec;
    fs::file_status own = entry.symlink_status(status_ec);
    bool link = fs::is_symlink(own);
    fs::file_status status = link ? entry.status(status_ec) : own;
    if (link) {
      bool folder = fs::is_directory(status);
      if (!fs::exists(status)) {
        if (wanted(name)) found_.skipped.push_back({path.string(), SkippedInput::Reason::kDanglingLink});
        continue;
      }
      if (!selection_.follow_links) {
        if (folder || (fs::is_regular_file(status) && wanted(name))) {
          found_.skipped.push_back({path.string(), SkippedInput::Reason::kLinkNotFollowed});
        }
        continue;
      }
    }
    if (fs::is_directory(status)) {
      if (is_output_bookkeeping(path, true)) continue;
      if (!first_visit(path)) {
        found_.skipped.push_back({path.string(), SkippedInput::Reason::kLinkCycle});
        continue;
      }
      WINNOW_RETURN_IF_ERROR(walk(path));
      continue;
    }
    if (fs::is_regular_file(status) && wanted(name) && !is_output_bookkeeping(path, false)) {
      std::error_code size_ec;
      uint64_t size = fs::file_size(path, size_ec);
      found_.files.push_back({path.string(), size_ec ? 0 : size});
    }
  }
  return Status::ok();
}

Status Discovery::add_named(std::string path, bool from_pattern) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::error_code ec;
  fs::file_status own = fs::symlink_status(path, ec);
  if (ec || !fs::exists(own)) return Status::errorf("input path '{}' does not exist", path);
  fs::file_status status = fs::status(path, ec);
  if (fs::is_symlink(own) && (ec || !fs::exists(status))) {
    std::error_code target_ec;
    fs::path target = fs::read_symlink(path, target_ec);
    return Status::errorf("input path '{}' is a dangling symbolic link (to '{}')", path,
                          target.string());
  }
  bool folder = fs::is_directory(status) && !path.ends_with(".jsonl");
  // A pattern stands for the paths it matches, but not for an earlier run's bookkeeping.
  if (from_pattern && is_output_bookkeeping(path, fs::is_directory(status))) return Status::ok();
  if (folder) {
    size_t before = found_.files.size();
    if (first_visit(path)) WINNOW_RETURN_IF_ERROR(walk(path));
    if (found_.files.size() == before && !from_pattern) {
      return Status::errorf("input directory '{}' holds no {} files", path,
                            selection_.wanted == InputFiles::kImages
                                ? "image (.jpg, .jpeg, .png, .gif, .webp, .bmp, .tif[f])"
                            : selection_.wanted == InputFiles::kTars
                                ? "tar (.tar, .tar.gz, .tgz, .tar.zst, .tar.bz2, .tar.xz)"
                            : selection_.wanted == InputFiles::kVideos
                                ? "video (.mp4, .mkv, .mov, .webm, .avi, .m4v)"
                            : selection_.wanted == InputFiles::kAudio
                                ? "audio (.wav, .flac, .mp3, .ogg, .opus, .m4a)"
                                : ".jsonl, .warc[.gz|.zst], .parquet, .xml[.bz2] or arXiv_src_*.tar");
    }
    return Status::ok();
  }
  // A named file (or a directory named *.jsonl, which will fail to read with a clear error).
  if (::access(path.c_str(), R_OK) != 0) {
    return Status::errorf("input file '{}' cannot be read: {}", path, std::strerror(errno));
  }
  uint64_t size = fs::is_regular_file(status) ? fs::file_size(path, ec) : 0;
  found_.files.push_back({path, ec ? 0 : size});
  return Status::ok();
}

}  // namespace

std::string_view skipped_reason_name(SkippedInput::Reason reason) {
  switch (reason) {
    case SkippedInput::Reason::kLinkNotFollowed:
      return "link_not_followed";
    case SkippedInput::Reason::kDanglingLink:
      return "dangling_link";
    case SkippedInput::Reason::kLinkCycle:
      return "link_cycle";
  }
  return "unknown";
}

Result<DiscoveredInputs> discover_input_set(const std::vector<std::string>& patterns,
                                            InputSelection selection) {
  if (patterns.empty()) return Status::error("no input given (input.paths or --input)");
  Discovery discovery(selection);
  for (const auto& pattern : patterns) {
    if (!has_glob_chars(pattern)) {
      WINNOW_RETURN_IF_ERROR(discovery.add_named(pattern, false));
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
      Status s = discovery.add_named(matches.gl_pathv[i], true);
      if (!s.is_ok()) {
        globfree(&matches);
        return s;
      }
    }
    globfree(&matches);
  }
  DiscoveredInputs found = discovery.take();
  std::vector<InputFile>& files = found.files;
  std::sort(files.begin(), files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const InputFile& a, const InputFile& b) { return a.path == b.path; }),
              files.end());
  std::vector<SkippedInput>& skipped = found.skipped;
  std::sort(skipped.begin(), skipped.end(),
            [](const SkippedInput& a, const SkippedInput& b) { return a.path < b.path; });
  skipped.erase(std::unique(skipped.begin(), skipped.end(),
                            [](const SkippedInput& a, const SkippedInput& b) {
                              return a.path == b.path;
                            }),
                skipped.end());
  return found;
}

Result<std::vector<InputFile>> discover_inputs(const std::vector<std::string>& patterns,
                                               InputSelection selection) {
  auto found = discover_input_set(patterns, selection);
  if (!found.is_ok()) return found.status();
  return std::move(found->files);
}

std::string shard_stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view suffix :
         {".gz", ".zst", ".bz2", ".xz", ".jsonl", ".json", ".parquet", ".tar", ".tgz"}) {
      if (name.ends_with(suffix) && name.size() > suffix.size()) {
        name.resize(name.size() - suffix.size());
        changed = true;
      }
    }
  }
  return name;
}

std::string shard_stem(const InputFile& input) {
  std::string stem = shard_stem(input.path);
  return input.rows ? fmt::format("{}-r{:05}", stem, input.rows->index) : stem;
}

}  // namespace winnow
