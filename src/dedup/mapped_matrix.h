#pragma once
// MappedMatrix: an n x d float32 matrix written once to a flat file (row by row, in any order)
// and then memory-mapped read-only, so that k-means (faiss reads a float pointer) and the
// cluster spill read the embeddings from the page cache instead of a heap copy of all of
// them: the kernel may drop clean pages under memory pressure and read them back, where an
// anonymous copy could only be swapped. The file is removed when the matrix is destroyed.
#include <cstddef>
#include <string>

#include "core/status.h"

namespace winnow {

class MappedMatrix {
 public:
  MappedMatrix() = default;
  ~MappedMatrix();
  MappedMatrix(const MappedMatrix&) = delete;
  MappedMatrix& operator=(const MappedMatrix&) = delete;

  // Creates (or truncates) `path` to rows x dims floats.
  Status create(const std::string& path, size_t rows, size_t dims);
  // Writes row `row` (dims floats); before map() only.
  Status write_row(size_t row, const float* values);
  // Ends the writing and maps the file read-only.
  Status map();

  const float* data() const { return data_; }
  const float* row(size_t r) const { return data_ + r * dims_; }
  size_t rows() const { return rows_; }
  size_t dims() const { return dims_; }
  uint64_t bytes() const { return static_cast<uint64_t>(rows_) * dims_ * sizeof(float); }
  // Unmaps and removes the file.
  void reset();

 private:
  std::string path_;
  int fd_ = -1;
  size_t rows_ = 0;
  size_t dims_ = 0;
  void* mapping_ = nullptr;
  const float* data_ = nullptr;
};

}  // namespace winnow
