#pragma once
// A tar file opened for streaming through libarchive (plain, or gzip / zstd / bzip2 / xz
// compressed), for the readers of tar inputs (WebDataset shards, arXiv bulk tars).
#include <archive.h>

#include <string>

#include "core/input_error.h"

namespace winnow {

struct TarOpenError {
  InputError kind = InputError::kCorruptTar;
  std::string message;  // without the path: the reader names its file
};

// The archive, positioned before its first member, or null with `error` set: an unreadable
// file, an empty one, or one libarchive cannot read as a tar. The caller frees it
// (archive_read_free).
archive* open_tar_file(const std::string& path, TarOpenError& error);

}  // namespace winnow
