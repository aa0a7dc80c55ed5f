#pragma once
// OutputBuffers: the strings batches are encoded into (DocBatch::encoded_kept, _rejected,
// _errors), kept once written for the batches after. A batch's encoded output is megabytes; a
// fresh string for each batch is fresh pages from the kernel (a page fault per 4 KiB on first
// touch) and, as it grows, reallocation and copy, which was a third of a filter chain's run.
// The encoder takes a buffer (empty, its capacity kept), the writer gives the batch's back once
// their bytes are in the sinks. Process-wide, under a mutex: a few calls per batch. It holds
// at most as many buffers as batches once had in flight (bounded by the pass's queues), and
// drops any over kMaxBufferBytes or past kMaxBuffers / kMaxKeptBytes in all, so its memory is
// what the run's peak already was.
#include <cstddef>
#include <string>

#include "core/doc_batch.h"

namespace winnow {

class OutputBuffers {
 public:
  static constexpr size_t kMaxBuffers = 64;
  static constexpr size_t kMaxBufferBytes = size_t{256} << 20;
  static constexpr size_t kMaxKeptBytes = size_t{1} << 30;  // capacities of all kept, at most

  // An empty string: the smallest kept buffer of at least `capacity` bytes, else the largest
  // (reserve grows it), else a new one; in every case reserved to `capacity`.
  static std::string take(size_t capacity);
  // Keeps `buffer` (cleared) for a later take; one with no heap storage is simply dropped.
  static void give_back(std::string&& buffer);
  // The batch's encoded outputs, once written.
  static void give_back(DocBatch& batch);
  // How many buffers are kept now (tests).
  static size_t kept();
};

}  // namespace winnow
