#pragma once
// TarWriter: a tar file (POSIX pax, restricted: plain ustar headers unless a name or size
// needs an extended one) written with libarchive under a temporary name and renamed by
// commit(), so a crash never leaves a half-written shard under its final name. Members are
// written with the bytes, name, mtime and permissions given (a WebDataset sample's members
// come back unchanged); owner 0, no user or group names, so the same members always make the
// same bytes.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/payload.h"
#include "core/status.h"

namespace winnow {

class TarWriter {
 public:
  static Result<std::unique_ptr<TarWriter>> create(const std::string& path);
  ~TarWriter();

  Status add(const PayloadMember& member, std::string_view bytes);
  Status commit();  // the end-of-archive blocks, then the rename
  uint64_t bytes_written() const { return written_; }
  // The bytes a member takes in a tar: its ustar header, data padded to 512, and an extended
  // header for a name over 100 bytes (an upper bound on what libarchive writes for it).
  static uint64_t member_bytes(std::string_view name, uint64_t size);

 private:
  TarWriter() = default;
  struct State;
  std::unique_ptr<State> state_;
  uint64_t written_ = 0;
};

}  // namespace winnow
