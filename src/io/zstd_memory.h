#pragma once
// The memory of the zstd compressors ByteSink makes. In its multi-threaded mode (which keeps
// output bytes independent of thread counts) zstd allocates, for each context, an input ring,
// job buffers and tables of tens of MiB, and an output file's context touches them all: with a
// fresh context per file, that was a page fault every 4 KiB of them for every file. Blocks of at
// least kLargeBytes come instead from anonymous mappings marked for transparent huge pages (a
// fault per 2 MiB where the kernel lends them), and a freed one is kept, up to kKeptBytes in
// all, for the next context that asks for as much. Smaller blocks are the heap's.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_customMem
#include <zstd.h>

#include <cstddef>

namespace winnow {

struct ZstdMemory {
  static constexpr size_t kLargeBytes = size_t{1} << 20;
  static constexpr size_t kKeptBytes = size_t{256} << 20;

  // For ZSTD_createCCtx_advanced.
  static ZSTD_customMem custom_mem();
  // Bytes held in kept blocks now (tests).
  static size_t kept_bytes();
};

}  // namespace winnow
