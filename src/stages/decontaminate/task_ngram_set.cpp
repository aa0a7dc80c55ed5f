#include "stages/decontaminate/task_ngram_set.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>


namespace winnow {

namespace {

// Enough powers of the base for any n-gram length a pipeline may ask for.
constexpr size_t kPowers = 4096;

const std::vector<uint64_t>& powers() {
  static const std::vector<uint64_t> table = [] {
    std::vector<uint64_t> p(kPowers + 1);
    p[0] = 1;
    for (size_t i = 1; i <= kPowers; ++i) p[i] = p[i - 1] * NgramHasher::kBase;
    return p;
  }();
  return table;
}

}  // namespace

uint64_t NgramHasher::power(size_t n) {
  if (n <= kPowers) return powers()[n];
  uint64_t result = 1, base = kBase;
  for (; n > 0; n >>= 1, base *= base) {
    if (n & 1) result *= base;
  }
  return result;
}

void NgramHasher::reset(const std::vector<NormalizedWord>& words) {
  prefix_.resize(words.size() + 1);
  prefix_[0] = 0;
  for (size_t i = 0; i < words.size(); ++i) prefix_[i + 1] = prefix_[i] * kBase + words[i].hash;
}

void TaskNgramSet::Free::operator()(Bucket* p) const { std::free(p); }

TaskNgramSet::TaskNgramSet(const std::vector<uint64_t>& fingerprints,
                           const std::vector<uint16_t>& tasks) {
  if (fingerprints.empty()) return;
  // Load at most 0.8 of the slots.
  size_t buckets = (fingerprints.size() * 10 / 8 + kSlots - 1) / kSlots + 1;
  constexpr size_t kHugePage = 2 << 20;
  const size_t bytes = (buckets * sizeof(Bucket) + kHugePage - 1) / kHugePage * kHugePage;
  void* memory = std::aligned_alloc(kHugePage, bytes);
  if (!memory) throw std::bad_alloc();
  madvise(memory, bytes, MADV_HUGEPAGE);  // a hint: without huge pages it works as well
  std::memset(memory, 0, bytes);
  buckets_.reset(static_cast<Bucket*>(memory));
  bucket_count_ = buckets;
  tasks_.assign(buckets * kSlots, kNoTask);
  for (size_t i = 0; i < fingerprints.size(); ++i) {
    const uint64_t fp = fingerprints[i];
    size_t b = bucket_of(fp);
    for (bool placed = false; !placed;) {
      Bucket& bucket = buckets_[b];
      for (size_t s = 0; s < kSlots; ++s) {
        if (bucket.slot[s] == fp) {
          placed = true;
          break;
        }
        if (bucket.slot[s] == 0) {
          bucket.slot[s] = fp;
          tasks_[b * kSlots + s] = tasks[i];
          ++size_;
          placed = true;
          break;
        }
      }
      if (!placed && ++b == bucket_count_) b = 0;
    }
  }
}

}  // namespace winnow
