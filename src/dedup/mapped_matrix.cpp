#include "dedup/mapped_matrix.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace winnow {

MappedMatrix::~MappedMatrix() { reset(); }

void MappedMatrix::reset() {
  if (mapping_) munmap(mapping_, bytes());
  if (fd_ >= 0) close(fd_);
  if (!path_.empty()) unlink(path_.c_str());
  mapping_ = nullptr;
  data_ = nullptr;
  fd_ = -1;
  path_.clear();
}

Status MappedMatrix::create(const std::string& path, size_t rows, size_t dims) {
  reset();
  rows_ = rows;
  dims_ = dims;
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) return Status::errorf("cannot create {}: {}", path, std::strerror(errno));
  path_ = path;
  if (ftruncate(fd_, static_cast<off_t>(bytes())) != 0) {
    return Status::errorf("cannot size {} to {} bytes: {}", path, bytes(), std::strerror(errno));
  }
  return Status::ok();
}

Status MappedMatrix::write_row(size_t row, const float* values) {
  const size_t size = dims_ * sizeof(float);
  const off_t at = static_cast<off_t>(row * size);
  const char* from = reinterpret_cast<const char*>(values);
  for (size_t done = 0; done < size;) {
    const ssize_t wrote = pwrite(fd_, from + done, size - done, at + static_cast<off_t>(done));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return Status::errorf("cannot write {}: {}", path_, std::strerror(errno));
    done += static_cast<size_t>(wrote);
  }
  return Status::ok();
}

Status MappedMatrix::map() {
  if (bytes() == 0) return Status::ok();
  mapping_ = mmap(nullptr, bytes(), PROT_READ, MAP_SHARED, fd_, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    return Status::errorf("cannot map {}: {}", path_, std::strerror(errno));
  }
  data_ = static_cast<const float*>(mapping_);
  return Status::ok();
}

}  // namespace winnow
