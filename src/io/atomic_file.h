#pragma once
// AtomicFile: a file written under a temporary name in the target folder and renamed to its
// final name only by commit(), after an fsync. Destroyed uncommitted, it removes the temporary
// file: a crash or a failed run never leaves a half-written file under a final name.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace winnow {

class AtomicFile {
 public:
  static Result<AtomicFile> create(const std::string& final_path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  ~AtomicFile();

  Status write(std::string_view bytes);
  Status commit();  // fsync, close, rename
  void abandon();   // close and remove the temporary file

  const std::string& final_path() const { return final_path_; }
  // Where the bytes are until commit() (another writer may fill it: io/parquet_table.h).
  const std::string& temp_path() const { return temp_path_; }

  // Temporary names look like ".NAME.tmp-PID"; a new run deletes those left by a killed one.
  static bool is_temporary_name(std::string_view file_name);
  // Writes a whole small file atomically (markers, stats).
  static Status write_whole(const std::string& final_path, std::string_view bytes);

 private:
  AtomicFile() = default;
  std::string final_path_;
  std::string temp_path_;
  int fd_ = -1;
  static constexpr uint64_t kWritebackBytes = 32 << 20;
  uint64_t written_ = 0;
  uint64_t synced_ = 0;
};

}  // namespace winnow
