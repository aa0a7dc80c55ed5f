#include "io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace winnow {

Result<AtomicFile> AtomicFile::create(const std::string& final_path) {
  std::filesystem::path path(final_path);
  AtomicFile file;
  file.final_path_ = final_path;
  file.temp_path_ =
      (path.parent_path() / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid())))
          .string();
  file.fd_ = ::open(file.temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (file.fd_ < 0) {
    return Status::errorf("cannot create {}: {}", file.temp_path_, std::strerror(errno));
  }
  return file;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept { *this = std::move(other); }

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    abandon();
    final_path_ = std::move(other.final_path_);
    temp_path_ = std::move(other.temp_path_);
    fd_ = other.fd_;
    written_ = other.written_;
    synced_ = other.synced_;
    other.fd_ = -1;
  }
  return *this;
}

AtomicFile::~AtomicFile() { abandon(); }

Status AtomicFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::errorf("cannot write {}: {}", temp_path_, std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
    written_ += static_cast<uint64_t>(n);
  }
  // Start writing back what we have so far, so the fsync at commit() finds little left to do
  // instead of stalling on the whole file. Asynchronous: it does not wait for the disk.
  if (written_ - synced_ >= kWritebackBytes) {
    ::sync_file_range(fd_, static_cast<off64_t>(synced_), static_cast<off64_t>(written_ - synced_),
                      SYNC_FILE_RANGE_WRITE);
    synced_ = written_;
  }
  return Status::ok();
}

Status AtomicFile::commit() {
  if (::fsync(fd_) != 0) {
    return Status::errorf("cannot sync {}: {}", temp_path_, std::strerror(errno));
  }
  ::close(fd_);
  fd_ = -1;
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    Status status =
        Status::errorf("cannot rename {} to {}: {}", temp_path_, final_path_, std::strerror(errno));
    std::remove(temp_path_.c_str());
    return status;
  }
  temp_path_.clear();
  // The rename itself is durable only once the folder is synced.
  std::string dir = std::filesystem::path(final_path_).parent_path().string();
  int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return Status::ok();
}

void AtomicFile::abandon() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_path_.empty()) {
    std::remove(temp_path_.c_str());
    temp_path_.clear();
  }
}

bool AtomicFile::is_temporary_name(std::string_view name) {
  return name.size() > 1 && name[0] == '.' && name.find(".tmp-") != std::string_view::npos;
}

Status AtomicFile::write_whole(const std::string& final_path, std::string_view bytes) {
  auto file = create(final_path);
  if (!file.is_ok()) return file.status();
  WINNOW_RETURN_IF_ERROR(file->write(bytes));
  return file->commit();
}

}  // namespace winnow
