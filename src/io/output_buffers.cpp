#include "io/output_buffers.h"

#include <mutex>
#include <vector>

namespace winnow {

namespace {

struct Pool {
  std::mutex mutex;
  std::vector<std::string> buffers;
  size_t bytes = 0;  // their capacities
};

Pool& pool() {
  static Pool* instance = new Pool();  // never destroyed: writers may give back at exit
  return *instance;
}

}  // namespace

std::string OutputBuffers::take(size_t capacity) {
  std::string buffer;
  {
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    size_t best = p.buffers.size();
    for (size_t i = 0; i < p.buffers.size(); ++i) {
      const size_t have = p.buffers[i].capacity();
      if (best == p.buffers.size()) {
        best = i;
        continue;
      }
      const size_t chosen = p.buffers[best].capacity();
      // Smallest that fits; while none fits, the largest.
      const bool fits = have >= capacity;
      const bool chosen_fits = chosen >= capacity;
      if ((fits && (!chosen_fits || have < chosen)) || (!fits && !chosen_fits && have > chosen)) {
        best = i;
      }
    }
    if (best < p.buffers.size()) {
      p.bytes -= p.buffers[best].capacity();
      buffer = std::move(p.buffers[best]);
      p.buffers[best] = std::move(p.buffers.back());
      p.buffers.pop_back();
    }
  }
  buffer.reserve(capacity);
  return buffer;
}

void OutputBuffers::give_back(std::string&& buffer) {
  // Short strings live inside the object (no heap storage): nothing to keep.
  if (buffer.capacity() < 4096 || buffer.capacity() > kMaxBufferBytes) return;
  buffer.clear();
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  if (p.buffers.size() < kMaxBuffers && p.bytes + buffer.capacity() <= kMaxKeptBytes) {
    p.bytes += buffer.capacity();
    p.buffers.push_back(std::move(buffer));
  }
}

void OutputBuffers::give_back(DocBatch& batch) {
  give_back(std::move(batch.encoded_kept));
  give_back(std::move(batch.encoded_rejected));
  give_back(std::move(batch.encoded_errors));
  batch.encoded_kept.clear();
  batch.encoded_rejected.clear();
  batch.encoded_errors.clear();
}

size_t OutputBuffers::kept() {
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  return p.buffers.size();
}

}  // namespace winnow
