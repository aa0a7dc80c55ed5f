#pragma once
// Spill files: intermediate records a global step writes to disk when they outgrow memory.
// A file is a sequence of blocks, each a 24-byte header (magic, payload size, XXH3-64 of the
// payload) and the payload. Every block is verified when read: a flipped bit, a truncated
// block or a file shorter or longer than written is an error naming the file and offset,
// never silently used (datatrove's "marked complete but truncated" trap).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/status.h"

namespace winnow {

// Bytes each block adds before its payload.
inline constexpr size_t kSpillBlockHeaderBytes = 24;

class SpillWriter {
 public:
  SpillWriter() = default;
  ~SpillWriter();
  SpillWriter(const SpillWriter&) = delete;
  SpillWriter& operator=(const SpillWriter&) = delete;

  Status open(const std::string& path);  // creates or truncates
  Status append_block(const void* data, size_t bytes);
  Status close();

  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return bytes_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t bytes_ = 0;
};

class SpillReader {
 public:
  SpillReader() = default;
  ~SpillReader();
  SpillReader(const SpillReader&) = delete;
  SpillReader& operator=(const SpillReader&) = delete;

  // `expected_bytes`: the size the writer reported; a file of another size is an error.
  Status open(const std::string& path, uint64_t expected_bytes);
  // Replaces `payload` with the next verified block; false at the end of the file.
  Result<bool> next_block(std::string& payload);
  // The next block read is the one at `offset`, which must be where the writer began a block
  // (a wrong offset reads as a bad block header: an error, never a silent misread).
  Status seek(uint64_t offset);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
};

// Closes `writer` and visits every block it wrote, in order, each verified as it is read.
Status read_back_blocks(SpillWriter& writer,
                        const std::function<Status(std::string_view block)>& visit);

// An append-only log of serialized records that many threads add to: kept in memory up to
// `memory_bytes` (at least 4 KiB), then spilled to one spill file at `path` (its folder made
// on the first spill), a block per spill. The logs of per-item facts a global step reads back
// once, after its identify pass (DocInfoLog, EmbeddingLog), are built on it.
class SpillLog {
 public:
  SpillLog(std::string path, size_t memory_bytes);

  Status add(std::string_view serialized);  // thread-safe
  // Visits every block spilled, in order and verified, then what is still in memory. Call
  // after the last add(); a second call visits the same blocks again.
  Status for_each_block(const std::function<Status(std::string_view block)>& visit);

  const std::string& path() const { return path_; }
  uint64_t spilled_bytes() const { return spilled_; }

 private:
  std::string path_;
  size_t memory_bytes_;
  std::mutex mutex_;
  std::string buffer_;
  std::unique_ptr<SpillWriter> writer_;
  uint64_t spilled_ = 0;
};

}  // namespace winnow
