#include "io/arxiv_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <optional>
#include <vector>

#include "core/utf8.h"
#include "io/arxiv_latex.h"
#include "io/document_rows.h"
#include "io/shard_batches.h"
#include "io/tar_file.h"

namespace winnow {

namespace {

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Python's os.path.splitext(name)[0] of a base name: up to the last dot, unless the dots
// before it are all the name has (".bashrc" stays).
std::string_view python_stem(std::string_view name) {
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return name;
  if (name.find_first_not_of('.') >= dot) return name;
  return name.substr(0, dot);
}

// Why a paper gives no document, as counted in the batch (`read/arxiv_<reason>`).
enum class Skip { kUnreadable, kNoTexFile, kNotUtf8, kNoSection, kMacroValue };

const char* skip_count_name(Skip why) {
  switch (why) {
    case Skip::kUnreadable:
      return "read/arxiv_unreadable";
    case Skip::kNoTexFile:
      return "read/arxiv_no_tex_file";
    case Skip::kNotUtf8:
      return "read/arxiv_not_utf8";
    case Skip::kNoSection:
      return "read/arxiv_no_section";
    case Skip::kMacroValue:
      return "read/arxiv_macro_value";
  }
  return "read/arxiv_skipped";
}

// Reads every byte of the current entry of `a` into `out`, up to `limit` (false past it or
// on damage).
bool read_entry(archive* a, std::string& out, uint64_t limit) {
  out.clear();
  char chunk[1 << 16];
  for (;;) {
    la_ssize_t n = archive_read_data(a, chunk, sizeof chunk);
    if (n == 0) return true;
    if (n < 0 || out.size() + static_cast<uint64_t>(n) > limit) return false;
    out.append(chunk, static_cast<size_t>(n));
  }
}

struct ArchiveHandle {
  archive* a = archive_read_new();
  ~ArchiveHandle() { archive_read_free(a); }
};

// A paper's .tex files as NeMo reads them: the .tex members of a (compressed) tar, else the
// whole of a gzip stream as one file. nullopt with `why` when it gives no file NeMo uses.
std::optional<std::vector<std::string>> paper_files(const std::string& member, uint64_t limit,
                                                    Skip& why) {
  std::vector<std::string> files;
  {
    ArchiveHandle tar;
    archive_read_support_format_tar(tar.a);
    archive_read_support_filter_gzip(tar.a);
    archive_read_support_filter_bzip2(tar.a);
    archive_read_support_filter_xz(tar.a);
    archive_entry* entry = nullptr;
    if (archive_read_open_memory(tar.a, member.data(), member.size()) == ARCHIVE_OK &&
        archive_read_next_header(tar.a, &entry) == ARCHIVE_OK) {
      std::string text;
      do {
        const char* name = archive_entry_pathname(entry);
        // As tarfile's getmembers: names ending ".tex" exactly; only files hold text.
        if (!name || !std::string_view(name).ends_with(".tex") ||
            archive_entry_filetype(entry) != AE_IFREG) {
          continue;
        }
        if (!read_entry(tar.a, text, limit)) {
          why = Skip::kUnreadable;  // tarfile fails on a damaged member: NeMo skips the paper
          return std::nullopt;
        }
        if (!is_valid_utf8(text)) {
          why = Skip::kNotUtf8;
          return std::nullopt;
        }
        files.push_back(std::move(text));
      } while (archive_read_next_header(tar.a, &entry) == ARCHIVE_OK);
      if (files.empty()) why = Skip::kNoTexFile;
      return files.empty() ? std::nullopt : std::optional(std::move(files));
    }
  }
  // Not a tar: one gzipped .tex (gzip's magic first, as Python's gzip module requires).
  if (member.size() < 2 || member[0] != '\x1f' || member[1] != '\x8b') {
    why = Skip::kUnreadable;
    return std::nullopt;
  }
  ArchiveHandle raw;
  archive_read_support_format_raw(raw.a);
  archive_read_support_filter_gzip(raw.a);
  archive_entry* entry = nullptr;
  std::string text;
  if (archive_read_open_memory(raw.a, member.data(), member.size()) != ARCHIVE_OK ||
      archive_read_next_header(raw.a, &entry) != ARCHIVE_OK || !read_entry(raw.a, text, limit)) {
    why = Skip::kUnreadable;
    return std::nullopt;
  }
  if (!is_valid_utf8(text)) {
    why = Skip::kNotUtf8;
    return std::nullopt;
  }
  files.push_back(std::move(text));
  return files;
}

}  // namespace

class ArxivReader::Impl {
 public:
  Impl(std::string path, uint32_t shard, ArxivOptions options)
      : path_(std::move(path)), shard_(shard), options_(std::move(options)) {}
  ~Impl() {
    if (archive_) archive_read_free(archive_);
  }

  std::unique_ptr<DocBatch> next() {
    auto batch = batches_.next(finished_);
    if (!batch || batch->end_of_shard) return batch;
    if (!archive_ && !open(*batch)) {
      finished_ = true;
      return batch;
    }
    uint64_t start = compressed_bytes_read();
    while (!finished_ && rows_.size() + batch->errors.size() < options_.batch_records &&
           rows_.bytes() < options_.batch_bytes) {
      if (!read_paper(*batch)) finished_ = true;
    }
    rows_.finish(*batch);
    batch->raw_input_bytes = compressed_bytes_read() - start;
    return batch;
  }

  uint64_t compressed_bytes_read() const {
    return archive_ ? static_cast<uint64_t>(archive_filter_bytes(archive_, -1)) : 0;
  }

 private:
  void add_error(DocBatch& batch, InputError kind, uint64_t offset, std::string message) {
    batch.errors.push_back({kind, index_, offset, fmt::format("{}: {}", path_, message), ""});
  }

  bool open(DocBatch& batch) {
    TarOpenError error;
    archive_ = open_tar_file(path_, error);
    if (!archive_) add_error(batch, error.kind, 0, std::move(error.message));
    return archive_ != nullptr;
  }

  // Reads the next member: a document, a counted skip or an error record. False at the end
  // of the tar, or at damage (an error record then names the member).
  bool read_paper(DocBatch& batch) {
    archive_entry* entry = nullptr;
    int r = archive_read_next_header(archive_, &entry);
    if (r == ARCHIVE_EOF) return false;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      const char* why = archive_error_string(archive_);
      add_error(batch, InputError::kCorruptTar, compressed_bytes_read(),
                fmt::format("damaged or truncated tar after member {} ({} papers read): {}",
                            last_name_.empty() ? "(none)" : last_name_, index_,
                            why ? why : "unreadable header"));
      return false;
    }
    uint64_t offset = static_cast<uint64_t>(archive_read_header_position(archive_));
    if (archive_entry_filetype(entry) != AE_IFREG) return true;  // folders: not papers
    std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    last_name_ = name;
    uint64_t index = index_++;
    if (archive_entry_size_is_set(entry) &&
        static_cast<uint64_t>(archive_entry_size(entry)) > options_.max_paper_bytes) {
      add_error(batch, InputError::kRecordTooLarge, offset,
                fmt::format("member {} (at byte {}) has {} bytes, over max_paper_bytes {}", name,
                            offset, archive_entry_size(entry), options_.max_paper_bytes));
      return true;
    }
    if (!read_entry(archive_, member_, options_.max_paper_bytes)) {
      const char* why = archive_error_string(archive_);
      add_error(batch, InputError::kTruncatedTar, offset,
                fmt::format("member {} (at byte {}) cannot be read whole: {}", name, offset,
                            why ? why : "the file ends inside it"));
      return false;
    }
    Skip why = Skip::kNoSection;
    std::optional<std::vector<std::string>> files =
        paper_files(member_, options_.max_paper_bytes, why);
    if (files) {
      ArxivText text = arxiv_paper_text(*files);
      if (text.outcome == ArxivTextOutcome::kText) {
        std::string id = arxiv_id_from_name(python_stem(base_name(name)));
        rows_.begin(index, text.text);
        rows_.add_string("id", id);
        rows_.add_string("source_id", base_name(path_));
        rows_.end(id);
        return true;
      }
      why = text.outcome == ArxivTextOutcome::kMacroValue ? Skip::kMacroValue : Skip::kNoSection;
    }
    ++batch.skipped_records;
    ++batch.stage_counts[skip_count_name(why)];
    return true;
  }

  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  ArxivOptions options_;
  archive* archive_ = nullptr;
  bool finished_ = false;
  uint64_t index_ = 0;     // members begun so far (papers, skipped ones included)
  std::string member_;     // the member being read, reused
  std::string last_name_;  // the last member begun, named by errors
  DocumentRows rows_{shard_, options_.text_field};  // the batch's documents
};

ArxivReader::ArxivReader(std::string path, uint32_t shard_index, ArxivOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), shard_index, std::move(options))) {}
ArxivReader::~ArxivReader() = default;

std::unique_ptr<DocBatch> ArxivReader::next() { return impl_->next(); }
uint64_t ArxivReader::compressed_bytes_read() const { return impl_->compressed_bytes_read(); }

bool ArxivReader::is_arxiv_path(const std::string& path) {
  std::string_view name = base_name(path);
  return name.starts_with("arXiv_src_") && name.ends_with(".tar");
}

}  // namespace winnow
