#include "io/zstd_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace winnow {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
// Each block starts with this header (keeping the heap's 16-byte alignment): how it was made.
constexpr size_t kHeader = 64;
constexpr uint64_t kHeapBlock = 0;

struct Header {
  uint64_t mapped;  // bytes of the mapping, or kHeapBlock
};

struct Kept {
  std::mutex mutex;
  std::vector<std::pair<size_t, void*>> blocks;  // (mapped bytes, base)
  size_t bytes = 0;
};

Kept& kept() {
  static Kept* instance = new Kept();  // never destroyed: contexts may be freed at exit
  return *instance;
}

void* map_block(size_t mapped) {
  {
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    // The smallest kept block that fits and is not more than twice as large.
    size_t best = k.blocks.size();
    for (size_t i = 0; i < k.blocks.size(); ++i) {
      const size_t have = k.blocks[i].first;
      if (have >= mapped && have <= 2 * mapped &&
          (best == k.blocks.size() || have < k.blocks[best].first)) {
        best = i;
      }
    }
    if (best < k.blocks.size()) {
      void* base = k.blocks[best].second;
      k.bytes -= k.blocks[best].first;
      k.blocks[best] = k.blocks.back();
      k.blocks.pop_back();
      return base;
    }
  }
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  ::madvise(base, mapped, MADV_HUGEPAGE);  // advice only: small pages if the kernel says no
  return base;
}

void unmap_block(void* base, size_t mapped) {
  {
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    if (k.bytes + mapped <= ZstdMemory::kKeptBytes) {
      k.blocks.emplace_back(mapped, base);
      k.bytes += mapped;
      return;
    }
  }
  ::munmap(base, mapped);
}

void* allocate(void*, size_t size) {
  void* base;
  if (size + kHeader >= ZstdMemory::kLargeBytes) {
    const size_t mapped = (size + kHeader + kHugePage - 1) / kHugePage * kHugePage;
    base = map_block(mapped);
    if (base) static_cast<Header*>(base)->mapped = mapped;
  } else {
    base = std::malloc(size + kHeader);
    if (base) static_cast<Header*>(base)->mapped = kHeapBlock;
  }
  return base ? static_cast<char*>(base) + kHeader : nullptr;
}

void release(void*, void* address) {
  if (!address) return;
  void* base = static_cast<char*>(address) - kHeader;
  const uint64_t mapped = static_cast<Header*>(base)->mapped;
  if (mapped == kHeapBlock) {
    std::free(base);
  } else {
    unmap_block(base, mapped);
  }
}

}  // namespace

ZSTD_customMem ZstdMemory::custom_mem() { return ZSTD_customMem{allocate, release, nullptr}; }

size_t ZstdMemory::kept_bytes() {
  Kept& k = kept();
  std::lock_guard lock(k.mutex);
  return k.bytes;
}

}  // namespace winnow
