#include "io/webdataset_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <unordered_set>

#include "core/image_header.h"
#include "core/utf8.h"
#include "io/shard_batches.h"
#include "io/tar_file.h"

namespace winnow {

namespace {

constexpr std::array<std::string_view, 8> kImageExtensions = {"jpg", "jpeg", "png", "webp",
                                                              "gif", "bmp",  "tif", "tiff"};

struct PendingMember {
  std::string name;
  std::string ext;
  std::string bytes;
  int64_t mtime = 0;
  uint32_t mode = 0644;
};

}  // namespace

std::pair<std::string, std::string> WebDatasetReader::split_name(std::string_view name) {
  size_t slash = name.rfind('/');
  size_t base = slash == std::string_view::npos ? 0 : slash + 1;
  size_t dot = name.find('.', base);
  if (dot == std::string_view::npos) return {std::string(name), std::string()};
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return {std::string(name.substr(0, dot)), ext};
}

bool WebDatasetReader::is_tar_path(std::string_view path) {
  for (std::string_view ext : {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tar.bz2", ".tar.xz"}) {
    if (path.ends_with(ext)) return true;
  }
  return false;
}

bool WebDatasetReader::has_tar_magic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[5] = {};
  in.seekg(257);
  return in.read(magic, 5) && std::string_view(magic, 5) == "ustar";
}

class WebDatasetReader::Impl {
 public:
  Impl(std::string path, uint32_t shard, WebDatasetOptions options)
      : path_(std::move(path)), shard_(shard), options_(options) {}
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
    uint64_t bytes = 0;
    while (!finished_ && batch->size() + batch->errors.size() < options_.batch_records &&
           bytes < options_.batch_bytes) {
      bytes += read_sample(*batch);
    }
    batch->raw_input_bytes = bytes;
    return batch;
  }

  uint64_t compressed_bytes_read() const {
    return archive_ ? static_cast<uint64_t>(archive_filter_bytes(archive_, -1)) : 0;
  }

 private:
  void add_error(DocBatch& batch, InputError kind, uint64_t offset, std::string message,
                 std::string_view excerpt = {}) {
    batch.errors.push_back({kind, 0, offset, fmt::format("{}: {}", path_, message),
                            std::string(excerpt.substr(0, 64))});
    ++row_;  // an error takes its sample's row, so later samples keep their keys
  }

  bool open(DocBatch& batch) {
    TarOpenError error;
    archive_ = open_tar_file(path_, error);
    if (!archive_) add_error(batch, error.kind, 0, std::move(error.message));
    return archive_ != nullptr;
  }

  // Reads the next member into `pending_`; false at the end of the file or at damage (then
  // an error record is in `batch` and reading stops).
  bool read_member(DocBatch& batch) {
    for (;;) {
      archive_entry* entry = nullptr;
      int r = archive_read_next_header(archive_, &entry);
      if (r == ARCHIVE_EOF) return false;
      uint64_t offset = static_cast<uint64_t>(archive_read_header_position(archive_));
      // RETRY is libarchive's "damaged header" (a bad checksum); FATAL a broken stream.
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
        add_error(batch, InputError::kCorruptTar, offset,
                  fmt::format("damaged tar at byte {}: {}", offset,
                              archive_error_string(archive_) ? archive_error_string(archive_)
                                                             : "unreadable header"));
        return false;
      }
      if (archive_entry_filetype(entry) != AE_IFREG) continue;  // folders, links
      const char* name = archive_entry_pathname(entry);
      member_.name = name ? name : "";
      auto [key, ext] = split_name(member_.name);
      member_key_ = std::move(key);
      member_.ext = std::move(ext);
      member_.mtime = archive_entry_mtime(entry);
      member_.mode = archive_entry_perm(entry);
      member_offset_ = offset;
      int64_t size = archive_entry_size(entry);
      member_too_large_ = size > 0 && static_cast<uint64_t>(size) > options_.media.max_bytes;
      member_.bytes.clear();
      if (member_too_large_) {
        member_size_ = static_cast<uint64_t>(size);
        if (archive_read_data_skip(archive_) != ARCHIVE_OK) {
          truncated(batch);
          return false;
        }
        return true;
      }
      member_.bytes.resize(static_cast<size_t>(std::max<int64_t>(size, 0)));
      size_t got = 0;
      while (got < member_.bytes.size()) {
        la_ssize_t n =
            archive_read_data(archive_, member_.bytes.data() + got, member_.bytes.size() - got);
        if (n <= 0) {
          truncated(batch);
          return false;
        }
        got += static_cast<size_t>(n);
      }
      return true;
    }
  }

  void truncated(DocBatch& batch) {
    const char* why = archive_error_string(archive_);
    add_error(batch, InputError::kTruncatedTar, member_offset_,
              fmt::format("member {} (header at byte {}) is cut short: {}", member_.name,
                          member_offset_, why ? why : "the file ends inside it"));
    // The sample it belongs to is lost with it; a whole sample before it is kept.
    if (member_key_ == sample_key_) sample_.clear();
  }

  // Reads one sample into `batch` (an item or an error record); returns the bytes it held.
  uint64_t read_sample(DocBatch& batch) {
    if (!have_member_) {
      if (!read_member(batch)) {
        finished_ = true;
        return 0;
      }
      have_member_ = true;
    }
    std::string key = member_key_;
    sample_key_ = key;
    uint64_t sample_offset = member_offset_;
    sample_.clear();
    std::string too_large;
    uint64_t bytes = 0;
    while (have_member_ && member_key_ == key) {
      if (member_too_large_ && too_large.empty()) {
        too_large = fmt::format(
            "member {} (header at byte {}) has {} bytes, over the limit of {} "
            "(input.max_file_bytes)",
            member_.name, member_offset_, member_size_, options_.media.max_bytes);
      }
      bytes += member_.bytes.size();
      sample_.push_back(std::move(member_));
      member_ = {};
      if (!read_member(batch)) {
        have_member_ = false;
        finished_ = true;
        // A member cut short takes its sample with it (truncated() cleared it).
        if (sample_.empty()) return bytes;
      }
    }
    // A key seen before gets no second item: its id would be the first one's, and the output
    // tar would hold two members of one name. Only the first sample with the key is an item.
    if (!keys_seen_.insert(key).second) {
      add_error(batch, InputError::kDuplicateKey, sample_offset,
                fmt::format("sample {} (at byte {}) repeats a key met earlier in this tar", key,
                            sample_offset));
      return bytes;
    }
    if (std::string twice = repeated_extension(); !twice.empty()) {
      add_error(batch, InputError::kDuplicateKey, sample_offset,
                fmt::format("sample {} (at byte {}) has two members of one extension: {}", key,
                            sample_offset, twice));
      return bytes;
    }
    if (!too_large.empty()) {
      add_error(batch, InputError::kRecordTooLarge, sample_offset, too_large);
      return bytes;
    }
    emit(batch, key, sample_offset);
    return bytes;
  }

  // "a.png and a.png" when two members of the sample share an extension (compared as
  // split_name gives it, lower-cased): WebDataset's loader would keep one of them, and a name
  // written twice would be two members of one name in the output tar. Empty when none does.
  std::string repeated_extension() const {
    for (size_t i = 1; i < sample_.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (sample_[i].ext == sample_[j].ext) return sample_[j].name + " and " + sample_[i].name;
      }
    }
    return {};
  }

  void emit(DocBatch& batch, const std::string& key, uint64_t offset) {
    const PendingMember* image = nullptr;
    for (std::string_view ext : kImageExtensions) {
      for (const PendingMember& m : sample_) {
        if (m.ext == ext) {
          image = &m;
          break;
        }
      }
      if (image) break;
    }
    if (!image) {
      add_error(batch, InputError::kSampleWithoutImage, offset,
                fmt::format("sample {} (at byte {}) has no image member", key, offset));
      return;
    }
    auto header = ImageHeader::parse(image->bytes);
    if (!header) {
      add_error(batch, InputError::kUndecodableImage, offset,
                fmt::format("member {} (sample at byte {}) is no image winnow can read (PNG, "
                            "JPEG, GIF, WebP, BMP, TIFF with a whole header)",
                            image->name, offset),
                image->bytes);
      return;
    }
    if (header->pixels() > options_.media.max_pixels) {
      add_error(batch, InputError::kImageTooLarge, offset,
                fmt::format("member {} (sample at byte {}) is {}x{}, {} pixels, over the limit "
                            "of {} (input.max_image_pixels)",
                            image->name, offset, header->width, header->height, header->pixels(),
                            options_.media.max_pixels));
      return;
    }
    std::string buffer;
    std::vector<PayloadMember> members;
    uint64_t image_offset = 0, image_size = 0;
    for (const PendingMember& m : sample_) {
      if (&m == image) {
        image_offset = buffer.size();
        image_size = m.bytes.size();
      }
      members.push_back({m.name, buffer.size(), m.bytes.size(), m.mtime, m.mode});
      buffer += m.bytes;
    }
    // The caption (the first .txt member) is the item's text, for the text stages; invalid
    // UTF-8 in it becomes U+FFFD there (the member itself is written back unchanged).
    std::string caption;
    for (const PendingMember& m : sample_) {
      if (m.ext == "txt") {
        if (is_valid_utf8(m.bytes)) {
          caption = m.bytes;
        } else {
          append_sanitized_utf8(caption, m.bytes);
        }
        break;
      }
    }
    Payload payload = Payload::of_bytes(std::move(buffer), header->media_type);
    payload.offset = image_offset;
    payload.size = image_size;
    payload.members = std::move(members);
    batch.add_item(DocKey::make(shard_, row_++), ItemKind::kImage, key, std::move(payload), 0,
                   caption);
  }

  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  WebDatasetOptions options_;
  archive* archive_ = nullptr;
  uint64_t row_ = 0;
  bool finished_ = false;
  // The member read ahead (the first of the next sample).
  bool have_member_ = false;
  PendingMember member_;
  std::string member_key_;
  uint64_t member_offset_ = 0;
  uint64_t member_size_ = 0;
  bool member_too_large_ = false;
  std::vector<PendingMember> sample_;
  std::string sample_key_;
  // Every sample key of the tar so far (a few bytes per sample), to refuse repeats.
  std::unordered_set<std::string> keys_seen_;
};

WebDatasetReader::WebDatasetReader(std::string path, uint32_t shard_index,
                                   WebDatasetOptions options)
    : impl_(std::make_unique<Impl>(std::move(path), shard_index, options)) {}
WebDatasetReader::~WebDatasetReader() = default;
std::unique_ptr<DocBatch> WebDatasetReader::next() { return impl_->next(); }
uint64_t WebDatasetReader::compressed_bytes_read() const { return impl_->compressed_bytes_read(); }

}  // namespace winnow
