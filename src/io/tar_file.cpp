#include "io/tar_file.h"

#include <fmt/format.h>

#include <filesystem>

namespace winnow {

archive* open_tar_file(const std::string& path, TarOpenError& error) {
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    error = {InputError::kUnreadableFile, "cannot read: " + ec.message()};
    return nullptr;
  }
  if (size == 0) {
    error = {InputError::kEmptyFile, "empty file"};
    return nullptr;
  }
  archive* a = archive_read_new();
  archive_read_support_format_tar(a);
  archive_read_support_filter_gzip(a);
  archive_read_support_filter_zstd(a);
  archive_read_support_filter_bzip2(a);
  archive_read_support_filter_xz(a);
  if (archive_read_open_filename(a, path.c_str(), 1 << 20) != ARCHIVE_OK) {
    error = {InputError::kCorruptTar,
             fmt::format("not a tar winnow can read: {}", archive_error_string(a))};
    archive_read_free(a);
    return nullptr;
  }
  return a;
}

}  // namespace winnow
